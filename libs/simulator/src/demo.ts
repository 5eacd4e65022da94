import { formatThermoConfig, type MeasurementTypeName, type ThermoMarker } from '@furnace/contracts';

/*
 * The demo specimen: the EI2 60 door the simulator streams (specimens.ts), its photo (demo-image.ts) and the
 * thermocouple config that places its 24 channels on the photo. `npm start`'s demo test
 * (apps/standalone/src/demo.ts) and the tests upload them as staff would.
 */

/** The demo's thermocouple config file, in the format staff upload. */
export function demoConfigText(): string {
  return formatThermoConfig(demoMarkers());
}

/** 24 thermocouples: a 4 × 4 grid on the door leaf (mean and max), 4 on the leaf's edge, 4 on the frame (the specimen's layout). */
export function demoMarkers(): ThermoMarker[] {
  const markers: ThermoMarker[] = [];
  const add = (x: number, y: number, type: MeasurementTypeName, color: string) => {
    const id = markers.length + 1;
    markers.push({
      thermo_id: id,
      name: `T${id}`,
      type_name: type,
      color_hex: color,
      item_x: x,
      item_y: y,
      item_size: 12,
      label_x: x + 14,
      label_y: y - 26,
      label_width: 58,
      label_height: 22,
      zone: null,
    });
  };
  for (let row = 0; row < 4; row++)
    for (let col = 0; col < 4; col++) add(215 + col * 105, 110 + row * 95, 'Tśr i Tmax', '#E53935');
  for (const y of [100, 200, 300, 400]) add(600, y, 'Tmax', '#1E88E5');
  for (const [x, y] of [
    [158, 150],
    [158, 350],
    [630, 150],
    [630, 350],
  ] as const)
    add(x, y, 'Tmax ościeżnicy', '#43A047');
  return markers;
}
