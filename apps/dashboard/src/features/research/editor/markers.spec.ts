import { parseThermoConfig } from '@furnace/contracts';
import type { Marker } from '../../../api/research-types';
import {
  clampMarker,
  cleanName,
  configFile,
  configText,
  defaultSizes,
  duplicateIds,
  moveLabel,
  moveMarker,
  nextThermoId,
  overlappingLabels,
  placeMarker,
  resizeMarker,
  retypeMarker,
  toEditorMarkers,
} from './markers';
import { editorMarker } from './test-markers';

const PHOTO = { width: 640, height: 400 };

const marker = editorMarker;

describe('placing a marker', () => {
  it('centres the square where the photo was clicked, the label beside it, numbered T1 on an empty photo', () => {
    const placed = placeMarker([], { x: 200, y: 150 }, 'Tśr i Tmax', PHOTO);
    expect(placed).toMatchObject({
      thermo_id: 1,
      name: 'T1',
      type_name: 'Tśr i Tmax',
      color_hex: '#E53935',
      item_x: 193,
      item_y: 143,
      item_size: 14,
    });
    expect(placed).toMatchObject({ label_x: 212, label_y: 138, label_width: 64, label_height: 24, zone: null });
  });

  it('continues the numbering after the highest number in use, not after the count', () => {
    const existing = [marker(3), marker(12), marker(7)];
    expect(nextThermoId(existing)).toBe(13);
    expect(placeMarker(existing, { x: 50, y: 50 }, 'T', PHOTO)).toMatchObject({
      thermo_id: 13,
      name: 'T13',
      color_hex: '#FB8C00',
    });
  });

  it('keeps a marker placed at the edge inside the photo, its label on the side with room', () => {
    const corner = placeMarker([], { x: 639, y: 399 }, 'Tmax', PHOTO);
    expect(corner.item_x + corner.item_size).toBe(640);
    expect(corner.item_y + corner.item_size).toBe(400);
    expect(corner.label_x + corner.label_width).toBeLessThan(corner.item_x);
    expect(corner.label_y + corner.label_height).toBeLessThanOrEqual(400);
    const origin = placeMarker([], { x: 0, y: 0 }, 'Tmax', PHOTO);
    expect([origin.item_x, origin.item_y, origin.label_y]).toEqual([0, 0, 0]);
  });

  it('makes markers larger on large photos, so they can be seen', () => {
    expect(defaultSizes({ width: 640, height: 480 })).toEqual({ item_size: 14, label_width: 64, label_height: 24 });
    expect(defaultSizes({ width: 4000, height: 3000 })).toEqual({ item_size: 56, label_width: 256, label_height: 96 });
  });
});

describe('moving and resizing', () => {
  it('moves the square and its label together', () => {
    expect(moveMarker(marker(1), 10, -5, PHOTO)).toMatchObject({ item_x: 110, item_y: 95, label_x: 130, label_y: 90 });
  });

  it('stops the move where the label or the square would leave the photo, keeping them together', () => {
    const moved = moveMarker(marker(1), 1000, -1000, PHOTO);
    // The label (120 + 64) reaches the right edge first; the square (y 100) the top one after the label (y 95).
    expect(moved).toMatchObject({ label_x: 576, item_x: 556, label_y: 0, item_y: 5 });
  });

  it('moves the label alone, clamped to the photo', () => {
    expect(moveLabel(marker(1), { x: 300, y: -20 }, PHOTO)).toMatchObject({ item_x: 100, label_x: 300, label_y: 0 });
    expect(moveLabel(marker(1), { x: 630, y: 390 }, PHOTO)).toMatchObject({ label_x: 576, label_y: 376 });
  });

  it('resizes the square about its centre and keeps it inside', () => {
    expect(resizeMarker(marker(1), 20, PHOTO)).toMatchObject({ item_size: 20, item_x: 97, item_y: 97 });
    expect(resizeMarker(marker(1, { item_x: 630 }), 30, PHOTO)).toMatchObject({ item_size: 30, item_x: 610 });
  });

  it('shrinks what is larger than the photo', () => {
    expect(clampMarker(marker(1, { label_width: 900 }), PHOTO)).toMatchObject({ label_width: 640, label_x: 0 });
  });

  it('gives a new type its colour', () => {
    expect(retypeMarker(marker(1), 'Tmax ościeżnicy')).toMatchObject({
      type_name: 'Tmax ościeżnicy',
      color_hex: '#43A047',
    });
  });

  it('keeps the zone for another insulation type, and drops it for a type that counts for no class', () => {
    expect(retypeMarker(marker(1, { zone: 'I1' }), 'Tmax ościeżnicy')).toMatchObject({ zone: 'I1' });
    expect(retypeMarker(marker(1, { zone: 'I2' }), 'T kątowników')).toMatchObject({ zone: null });
  });
});

describe('warnings', () => {
  it('finds every pair of overlapping labels, not those that only touch', () => {
    const a = marker(1, { label_x: 100, label_y: 100 });
    const b = marker(2, { label_x: 150, label_y: 110 });
    const touching = marker(3, { label_x: 214, label_y: 100 });
    const far = marker(4, { label_x: 400, label_y: 300 });
    const c = marker(5, { label_x: 90, label_y: 120 });
    expect(overlappingLabels([a, b, touching, far, c]).map(([x, y]) => [x.thermo_id, y.thermo_id])).toEqual([
      [1, 2],
      [1, 5],
      [2, 5],
    ]);
    expect(overlappingLabels([a, far])).toEqual([]);
  });

  it('lists thermocouple numbers used twice', () => {
    expect(duplicateIds([marker(1), marker(2), marker(1), marker(4), marker(2)])).toEqual([1, 2]);
  });

  it('keeps names the file format can carry', () => {
    expect(cleanName('  Drzwi; lewe #2 ')).toBe('Drzwi lewe 2');
    expect([...cleanName('ś'.repeat(80))]).toHaveLength(64);
  });
});

describe('the saved file', () => {
  it('is the config file format, which the parser reads back to the same markers', () => {
    const markers = [marker(2, { name: 'Łącznik', type_name: 'T kątowników', item_x: 10.5 }), marker(1)];
    expect(configFile(markers, 'termopary.txt')).toMatchObject({
      name: 'termopary.txt',
      type: 'text/plain;charset=utf-8',
    });
    const text = configText(markers);
    expect(text.split('\n')[0]).toBe(
      'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height',
    );
    const parsed = parseThermoConfig(new TextEncoder().encode(text), { imageWidth: 640, imageHeight: 400 });
    expect(parsed.ok && parsed.markers).toEqual(markers.map(({ key: _key, ...m }) => m));
  });

  it('writes the zone column only when some marker has a zone', () => {
    const markers = [marker(1, { zone: 'I2' }), marker(2)];
    const lines = configText(markers).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height;zone',
      '1;T1;Tmax;#1E88E5;100;100;14;120;95;64;24;I2',
      '2;T2;Tmax;#1E88E5;200;100;14;220;95;64;24;',
    ]);
    const parsed = parseThermoConfig(new TextEncoder().encode(lines.join('\n')));
    expect(parsed.ok && parsed.markers.map((m) => m.zone)).toEqual(['I2', null]);
  });

  it('starts from the stored markers, in number order, their zones as stored (none when not sent)', () => {
    const stored: Marker[] = [2, 1].map((n) => ({
      ...marker(n, { zone: n === 2 ? 'I1' : null }),
      id: `id${n}`,
      config_id: 'c',
    }));
    const { zone: _zone, ...older } = stored[1]!;
    const editable = toEditorMarkers(stored);
    expect(editable.map((m) => m.thermo_id)).toEqual([1, 2]);
    expect(editable.map((m) => m.zone)).toEqual([null, 'I1']);
    expect(toEditorMarkers([older])[0]?.zone).toBeNull();
    expect(editable[0]).not.toHaveProperty('id');
    expect(new Set(editable.map((m) => m.key)).size).toBe(2);
  });
});
