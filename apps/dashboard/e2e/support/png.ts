import pngjs from 'pngjs';

/**
 * A small RGB PNG made in the test: a furnace-door-like gradient with a darker specimen panel, so
 * the thumbnail has something to show under its markers.
 */
export function makePng(width: number, height: number): Buffer {
  const png = new pngjs.PNG({ width, height, colorType: 2 });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inPanel = x > width * 0.15 && x < width * 0.85 && y > height * 0.15 && y < height * 0.85;
      const shade = Math.round(150 + (80 * x) / width);
      const i = (y * width + x) * 4;
      png.data[i] = inPanel ? 120 : shade;
      png.data[i + 1] = inPanel ? 110 : Math.round(shade * 0.8);
      png.data[i + 2] = inPanel ? 100 : Math.round(shade * 0.6);
      png.data[i + 3] = 255;
    }
  }
  return pngjs.PNG.sync.write(png, { colorType: 2 });
}
