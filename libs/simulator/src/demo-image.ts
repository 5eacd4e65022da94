import { PNG } from 'pngjs';

/**
 * A drawing of a test specimen (a door in its frame on the furnace's unexposed side), as a PNG made
 * here so the demo needs no asset file: the live view draws the thermocouple markers on it.
 */
export function demoSpecimenPng(width = 800, height = 500): Buffer {
  const fill = (x: number, y: number): [number, number, number] => {
    const wall = 205 + ((x * 7 + y * 3) % 11) - 5;
    if (x < 150 || x >= 650 || y < 40 || y >= 470) return [wall, wall - 4, wall - 10]; // masonry around the opening
    if (x < 175 || x >= 625 || y < 65) return [96, 96, 104]; // steel frame
    if (y >= 445) return [70, 70, 76]; // threshold
    const grain = Math.round(8 * Math.sin(x / 9 + Math.sin(y / 37) * 2));
    if (x > 580 && x < 596 && y > 240 && y < 300) return [60, 60, 60]; // handle
    return [180 + grain, 150 + grain, 110 + grain]; // door leaf
  };
  const png = new PNG({ width, height, colorType: 2 });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = fill(x, y);
      const i = (y * width + x) * 4;
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png, { colorType: 2 });
}
