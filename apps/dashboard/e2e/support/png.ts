import { rgbPng } from '../../../ingest/src/simulator/demo-image';

/**
 * A small RGB PNG made in the test: a furnace-door-like gradient with a darker specimen panel,
 * so the thumbnail has something to show under its markers.
 */
export function makePng(width: number, height: number): Buffer {
  return rgbPng(width, height, (x, y) => {
    const inPanel = x > width * 0.15 && x < width * 0.85 && y > height * 0.15 && y < height * 0.85;
    const shade = Math.round(150 + (80 * x) / width);
    return inPanel ? [120, 110, 100] : [shade, Math.round(shade * 0.8), Math.round(shade * 0.6)];
  });
}
