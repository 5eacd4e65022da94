import { crc32, deflateSync } from 'node:zlib';

/**
 * A drawing of a test specimen (a door in its frame on the furnace's unexposed side), as a PNG made
 * here so the demo needs no asset file: the live view draws the thermocouple markers on it.
 */
export function demoSpecimenPng(width = 800, height = 500): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  const fill = (x: number, y: number): [number, number, number] => {
    const wall = 205 + ((x * 7 + y * 3) % 11) - 5;
    if (x < 150 || x >= 650 || y < 40 || y >= 470) return [wall, wall - 4, wall - 10]; // masonry around the opening
    if (x < 175 || x >= 625 || y < 65) return [96, 96, 104]; // steel frame
    if (y >= 445) return [70, 70, 76]; // threshold
    const grain = Math.round(8 * Math.sin(x / 9 + Math.sin(y / 37) * 2));
    if (x > 580 && x < 596 && y > 240 && y < 300) return [60, 60, 60]; // handle
    return [180 + grain, 150 + grain, 110 + grain]; // door leaf
  };
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = fill(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
