import type { InsulationClass, MeasurementTypeName, TestStandard } from '@furnace/contracts';

/** How a thermocouple's place on the specimen makes it warm: the leaf's face, near its edge, on the frame. */
export type ChannelKind = 'face' | 'edge' | 'frame';

/**
 * A simulated specimen: its test profile and its thermocouples (thermo_id = index + 1). `--profile`
 * of the simulator picks one; the demo of `npm start` runs the door.
 */
export interface SpecimenProfile {
  id: string;
  label: string;
  standard: TestStandard;
  insulation: InsulationClass | null;
  planned_duration_min: number;
  /** In thermo_id order. */
  channels: readonly { kind: ChannelKind; type_name: MeasurementTypeName }[];
  /** Multiplies every channel's warming rate: a thinner specimen warms faster. */
  rateScale: number;
  /** The thermocouple whose wire breaks part-way (it then reads over-range), and when, minutes. */
  failing: { thermo_id: number; at_min: number };
}

const repeat = (count: number, kind: ChannelKind, type_name: MeasurementTypeName) =>
  Array.from({ length: count }, () => ({ kind, type_name }));

/** A door leaf with 16 thermocouples for the mean and max, 4 near its edge, 4 on the frame. */
const DOOR_CHANNELS = [
  ...repeat(16, 'face', 'Tśr i Tmax'),
  ...repeat(4, 'edge', 'Tmax'),
  ...repeat(4, 'frame', 'Tmax ościeżnicy'),
];

export const SPECIMEN_PROFILES: readonly SpecimenProfile[] = Object.freeze([
  {
    id: 'door-ei2-60',
    label: 'Door, EN 1634-1, EI2 60',
    standard: 'EN_1634_1',
    insulation: 'I2',
    planned_duration_min: 60,
    channels: DOOR_CHANNELS,
    rateScale: 1,
    failing: { thermo_id: 6, at_min: 38 },
  },
  {
    id: 'door-ei1-30',
    label: 'Door, EN 1634-1, EI1 30',
    standard: 'EN_1634_1',
    insulation: 'I1',
    planned_duration_min: 30,
    channels: DOOR_CHANNELS,
    rateScale: 2.4,
    failing: { thermo_id: 6, at_min: 20 },
  },
  {
    id: 'wall-ei-30',
    label: 'Wall, EN 1364-1, EI 30',
    standard: 'EN_1364_1',
    insulation: null,
    planned_duration_min: 30,
    channels: [...repeat(5, 'face', 'Tśr i Tmax'), ...repeat(4, 'edge', 'Tmax')],
    rateScale: 4.5,
    failing: { thermo_id: 2, at_min: 22 },
  },
]);

export const SPECIMEN_PROFILE_IDS = SPECIMEN_PROFILES.map((p) => p.id);
export const DEFAULT_SPECIMEN = 'door-ei2-60';

export function specimenProfile(id: string): SpecimenProfile | undefined {
  return SPECIMEN_PROFILES.find((p) => p.id === id);
}
