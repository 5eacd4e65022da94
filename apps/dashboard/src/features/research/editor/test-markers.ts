import type { EditorMarker } from './markers';

/** Factory for the editor's tests: thermocouple `thermo_id`, its square at x = 100 × thermo_id, y = 100, its label just right of it. */
export function editorMarker(thermo_id: number, overrides: Partial<EditorMarker> = {}): EditorMarker {
  return {
    key: `k${thermo_id}`,
    thermo_id,
    name: `T${thermo_id}`,
    type_name: 'Tmax',
    color_hex: '#1E88E5',
    item_x: 100 * thermo_id,
    item_y: 100,
    item_size: 14,
    label_x: 100 * thermo_id + 20,
    label_y: 95,
    label_width: 64,
    label_height: 24,
    zone: null,
    ...overrides,
  };
}
