import { markerShapes, strokeFor } from './thumbnail';

const coord = (thermoId: number, overrides: Partial<Parameters<typeof markerShapes>[0][number]> = {}) => ({
  id: `m${thermoId}`,
  config_id: 'c1',
  thermo_id: thermoId,
  name: `T${thermoId}`,
  type_name: 'Tmax' as const,
  color_hex: '#E53935',
  item_x: 10 * thermoId,
  item_y: 20,
  item_size: 14,
  label_x: 30,
  label_y: 40,
  label_width: 64,
  label_height: 24,
  ...overrides,
});

describe('thumbnail markers', () => {
  it('draws a square at the item position and a label box with the name, in thermocouple order', () => {
    const shapes = markerShapes([coord(2), coord(1, { color_hex: '#1E88E5' })]);
    expect(shapes.map((s) => s.label.text)).toEqual(['T1', 'T2']);
    expect(shapes[0]).toMatchObject({
      color: '#1E88E5',
      marker: { x: 10, y: 20, size: 14 },
      label: { x: 30, y: 40, width: 64, height: 24 },
    });
    expect(shapes[0]?.label.fontSize).toBe(14);
  });

  it('keeps strokes visible when a large photo is shrunk', () => {
    expect(strokeFor(4000, 400)).toBe(10);
    expect(strokeFor(200, 400)).toBe(1);
    expect(strokeFor(0, 400)).toBe(1);
  });
});
