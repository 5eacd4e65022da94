import { z } from 'zod';

/** Critical temperatures of a measurement type, °C; `null` where the type has no threshold. */
export interface CriticalValues {
  readonly max: number | null;
  readonly mean: number | null;
}

export interface MeasurementType {
  /** The exact name used in thermocouple config files (docs/behaviour.md §9). */
  readonly name: string;
  readonly critical: CriticalValues;
  /** The colour a new marker of this type gets (#RRGGBB); a config file may give any colour. */
  readonly color: string;
  readonly description: { readonly pl: string; readonly en: string };
}

/**
 * The twelve measurement (temperature series) types, in the order of docs/behaviour.md §9.
 * docs/behaviour.md §9's "none" means the type has no threshold: it is `null` here, never 0,
 * so that no reading is ever shown as exceeding it.
 */
export const MEASUREMENT_TYPES = Object.freeze([
  {
    name: 'Tśr i Tmax',
    critical: { max: 180, mean: 140 },
    color: '#E53935',
    description: { pl: 'Temperatura średnia i maksymalna', en: 'Average and maximum' },
  },
  {
    name: 'Tśr i Tmax dyskretna',
    critical: { max: 180, mean: 140 },
    color: '#D81B60',
    description: {
      pl: 'Temperatura średnia i maksymalna obszaru dyskretnego',
      en: 'Average and maximum of a discrete area',
    },
  },
  {
    name: 'Tmax',
    critical: { max: 180, mean: null },
    color: '#1E88E5',
    description: { pl: 'Temperatura maksymalna', en: 'Maximum' },
  },
  {
    name: 'TDin',
    critical: { max: 180, mean: null },
    color: '#3949AB',
    description: { pl: 'Temperatura maksymalna wg DIN 4102-5', en: 'Maximum per DIN 4102-5' },
  },
  {
    name: 'Tmax dyskretna',
    critical: { max: 180, mean: null },
    color: '#8E24AA',
    description: { pl: 'Temperatura maksymalna obszaru dyskretnego', en: 'Maximum of a discrete area' },
  },
  {
    name: 'Tmax 20mm wolny koniec',
    critical: { max: 180, mean: null },
    color: '#5E35B1',
    description: {
      pl: 'Temperatura maksymalna 20 mm od wolnego końca',
      en: 'Maximum 20 mm from the free edge',
    },
  },
  {
    name: 'Tmax uzup',
    critical: { max: 180, mean: null },
    color: '#039BE5',
    description: {
      pl: 'Temperatura maksymalna wg procedury uzupełniającej',
      en: 'Maximum by supplementary procedure',
    },
  },
  {
    name: 'Tmax dyskretna uzup',
    critical: { max: 180, mean: null },
    color: '#00ACC1',
    description: {
      pl: 'Temperatura maksymalna obszaru dyskretnego wg procedury uzupełniającej',
      en: 'Maximum of a discrete area by supplementary procedure',
    },
  },
  {
    name: 'Tmax ościeżnicy',
    critical: { max: 360, mean: null },
    color: '#43A047',
    description: { pl: 'Temperatura maksymalna ościeżnicy', en: 'Maximum of the frame' },
  },
  {
    name: 'Tmax obwod',
    critical: { max: 180, mean: null },
    color: '#7CB342',
    description: { pl: 'Temperatura maksymalna ościeżnicy obwodowej', en: 'Maximum of the peripheral frame' },
  },
  {
    name: 'T kątowników',
    critical: { max: null, mean: null },
    color: '#6D4C41',
    description: {
      pl: 'Temperatura systemu mocowania (płytki do kątowników)',
      en: 'Temperature of the fixing system (plates to angle brackets)',
    },
  },
  {
    name: 'T',
    critical: { max: null, mean: null },
    color: '#FB8C00',
    description: { pl: 'Temperatura', en: 'Plain temperature' },
  },
] as const satisfies readonly MeasurementType[]);

export type MeasurementTypeName = (typeof MEASUREMENT_TYPES)[number]['name'];

// Deep-freeze the nested objects too: the table is shared by every caller.
for (const type of MEASUREMENT_TYPES) {
  Object.freeze(type);
  Object.freeze(type.critical);
  Object.freeze(type.description);
}

export const MEASUREMENT_TYPE_NAMES = Object.freeze(MEASUREMENT_TYPES.map((type) => type.name)) as readonly [
  MeasurementTypeName,
  ...MeasurementTypeName[],
];

export const measurementTypeNameSchema = z.enum(MEASUREMENT_TYPE_NAMES);

const BY_NAME: ReadonlyMap<string, (typeof MEASUREMENT_TYPES)[number]> = new Map(
  MEASUREMENT_TYPES.map((type) => [type.name, type]),
);

export function isMeasurementTypeName(value: unknown): value is MeasurementTypeName {
  return typeof value === 'string' && BY_NAME.has(value);
}

export function measurementType(name: MeasurementTypeName): MeasurementType {
  // The key type guarantees a hit.
  return BY_NAME.get(name) as MeasurementType;
}

const NO_THRESHOLD: CriticalValues = Object.freeze({ max: null, mean: null });

/**
 * Critical values of a measurement type. Accepts any string because type names also arrive
 * as plain strings from the API; a name that is not one of the twelve has no thresholds.
 */
export function criticalFor(name: string): CriticalValues {
  return BY_NAME.get(name)?.critical ?? NO_THRESHOLD;
}
