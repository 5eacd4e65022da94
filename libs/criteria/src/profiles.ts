import { z } from 'zod';
import { criticalFor, MEASUREMENT_TYPE_NAMES } from '@furnace/contracts';
import type {
  ClassPeriods,
  ClassSystem,
  CriteriaBasis,
  InsulationClass,
  ProfileRules,
  TestProfile,
  TestStandard,
  TypeRole,
} from '@furnace/contracts';
import { HEATING_CURVE_IDS } from './curves';

export const TEST_STANDARD_IDS = Object.freeze([
  'EN_1363_1',
  'EN_1634_1',
  'EN_1364_1',
  'DIN_4102_5',
] as const) satisfies readonly TestStandard[];
export const INSULATION_CLASSES = Object.freeze(['I1', 'I2'] as const) satisfies readonly InsulationClass[];
export const CRITERIA_BASES = Object.freeze(['rise', 'absolute'] as const) satisfies readonly CriteriaBasis[];

/**
 * `door`: a door or shutter (a frame criterion; EN 1634-1's insulation classes I1 / I2). Each standard's name, in
 * Polish and English, is the text catalogue's `criteria.standard` (libs/text, @furnace/text).
 */
export interface TestStandardInfo {
  readonly id: TestStandard;
  readonly door: boolean;
  readonly classes: ClassSystem;
}

/*
 * The period lists, per element (README.md, "Class periods"). From published summaries of EN 13501-2:2016;
 * the clause numbers were not checked against the standard's text.
 * - Non-loadbearing walls (partitions), EN 13501-2 §7.5.2 (tested to EN 1364-1): E 20, 30, 60, 90, 120;
 *   EI 15, 20, 30, 45, 60, 90, 120, 180, 240; EW 20, 30, 60, 90, 120.
 * - Fire doors and shutter assemblies, EN 13501-2 §7.5.5 (tested to EN 1634-1): E and EI1 / EI2 15, 20, 30,
 *   45, 60, 90, 120, 180, 240; EW 20, 30, 60.
 * - EN 1363-1 alone names no element: every period EN 13501-2 uses (15 … 360) for each part. A lab classifies
 *   a real element with its own test standard.
 * - DIN 4102-5:1977 (Feuerschutzabschlüsse): classes T 30, T 60, T 90, T 120, T 180, for as long as both the
 *   room closure and the temperature criteria hold (checked against published summaries only).
 */
const EVERY_PERIOD = Object.freeze([15, 20, 30, 45, 60, 90, 120, 180, 240, 360]);
const WALL_CLASSES: ClassPeriods = Object.freeze({
  E: Object.freeze([20, 30, 60, 90, 120]),
  EI: Object.freeze([15, 20, 30, 45, 60, 90, 120, 180, 240]),
  EW: Object.freeze([20, 30, 60, 90, 120]),
});
const DOOR_CLASSES: ClassPeriods = Object.freeze({
  E: Object.freeze([15, 20, 30, 45, 60, 90, 120, 180, 240]),
  EI: Object.freeze([15, 20, 30, 45, 60, 90, 120, 180, 240]),
  EW: Object.freeze([20, 30, 60]),
});
const GENERIC_CLASSES: ClassPeriods = Object.freeze({ E: EVERY_PERIOD, EI: EVERY_PERIOD, EW: EVERY_PERIOD });
const DIN_T_CLASSES = Object.freeze([30, 60, 90, 120, 180]);

export const TEST_STANDARDS: readonly TestStandardInfo[] = Object.freeze(
  (
    [
      {
        id: 'EN_1363_1',
        door: false,
        classes: { system: 'EN_13501_2', periods: GENERIC_CLASSES },
      },
      {
        id: 'EN_1634_1',
        door: true,
        classes: { system: 'EN_13501_2', periods: DOOR_CLASSES },
      },
      {
        id: 'EN_1364_1',
        door: false,
        classes: { system: 'EN_13501_2', periods: WALL_CLASSES },
      },
      {
        id: 'DIN_4102_5',
        door: true,
        classes: { system: 'DIN_4102_5', periods: DIN_T_CLASSES },
      },
    ] satisfies TestStandardInfo[]
  ).map((standard) => Object.freeze(standard)),
);

export function isTestStandard(value: unknown): value is TestStandard {
  return typeof value === 'string' && (TEST_STANDARD_IDS as readonly string[]).includes(value);
}

function standardInfo(standard: TestStandard): TestStandardInfo {
  return TEST_STANDARDS.find((s) => s.id === standard) ?? (TEST_STANDARDS[0] as TestStandardInfo);
}

/** How a result of `standard` is classified (see TEST_STANDARDS). */
export function classSystemOf(standard: TestStandard): ClassSystem {
  return standardInfo(standard).classes;
}

export function isDoorStandard(standard: TestStandard): boolean {
  return TEST_STANDARDS.find((s) => s.id === standard)?.door ?? false;
}

/** Rise basis, EN 1363-1, ISO 834, nothing planned. */
export const DEFAULT_TEST_PROFILE: TestProfile = Object.freeze({
  standard: 'EN_1363_1',
  insulation: null,
  heating_curve: 'iso834',
  criteria_basis: 'rise',
  planned_duration_min: null,
  pressure_target_pa: null,
  pressure_tolerance_pa: null,
});

/** Validates a profile arriving as JSON (e.g. a stored row or a request body); errors name the field. */
export const testProfileSchema = z.object({
  standard: z.enum(TEST_STANDARD_IDS),
  insulation: z.enum(INSULATION_CLASSES).nullable(),
  heating_curve: z.enum(HEATING_CURVE_IDS),
  criteria_basis: z.enum(CRITERIA_BASES),
  planned_duration_min: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .nullable(),
  pressure_target_pa: z.number().min(-1000).max(1000).nullable(),
  pressure_tolerance_pa: z.number().min(0).max(1000).nullable(),
});

const NONE: TypeRole = Object.freeze({ mean: false, max: false, frame: false });
const MAX: TypeRole = Object.freeze({ mean: false, max: true, frame: false });
const MEAN_MAX: TypeRole = Object.freeze({ mean: true, max: true, frame: false });
const FRAME: TypeRole = Object.freeze({ mean: false, max: false, frame: true });

/*
 * Which thermocouples of the unexposed face count for which insulation criterion (rise basis).
 * - EN 1363-1:2020 §11.3 (insulation): the mean rise is taken over the thermocouples for the mean
 *   (the "Tśr" types; a discrete area is its own category, with its own mean); the maximum rise over every
 *   unexposed-face thermocouple, the mean ones included (supplementary ones too).
 * - EN 1634-1:2014+A1:2018 §9.1.2.3 / §13.2: door frame thermocouples ("Tmax ościeżnicy") count for the
 *   frame criterion; the peripheral ones ("Tmax obwod") for the leaf maximum, as today.
 * - Fixing-system ("T kątowników") and plain ("T") thermocouples are informative: no criterion.
 * The same table holds for EN 1364-1 (§11 refers to EN 1363-1 §11.3) and DIN 4102-5 (whose "TDin"
 * thermocouples are the maximum points of its own layout).
 */
const RISE_ROLES: Readonly<Record<string, TypeRole>> = Object.freeze({
  'Tśr i Tmax': MEAN_MAX,
  'Tśr i Tmax dyskretna': MEAN_MAX,
  Tmax: MAX,
  TDin: MAX,
  'Tmax dyskretna': MAX,
  'Tmax 20mm wolny koniec': MAX,
  'Tmax uzup': MAX,
  'Tmax dyskretna uzup': MAX,
  'Tmax ościeżnicy': FRAME,
  'Tmax obwod': MAX,
  'T kątowników': NONE,
  T: NONE,
});

const PROFILE_TYPES: Readonly<Record<TestStandard, Readonly<Record<string, TypeRole>>>> = Object.freeze({
  EN_1363_1: RISE_ROLES,
  EN_1634_1: RISE_ROLES,
  EN_1364_1: RISE_ROLES,
  DIN_4102_5: RISE_ROLES,
});

/*
 * Limits on the rise basis, K above T0:
 * - mean 140 K, max 180 K: EN 1363-1:2020 §11.3 a) and b); EN 1364-1:2015 §11.2; EN 13501-2 §7.5.5.1;
 *   DIN 4102-5 takes the 140 K mean / 180 K point rises of DIN 4102-2 (clause not checked against the text).
 * - frame: EN 13501-2 §7.5.5.2 / EN 1634-1 §13.2.2: I2 — 360 K on the frame; I1 — 180 K on the frame.
 *   For the other standards a frame thermocouple keeps the spec's 360.
 */
const RISE_LIMITS = Object.freeze({ mean: 140, max: 180, frameI2: 360, frameI1: 180 });

/*
 * The absolute basis reproduces the spec's critical values (`criticalFor`) as absolute °C: a type with a
 * mean value counts for the mean, the one at 360 is the frame, the others with a value count for the max.
 */
const ABSOLUTE_FRAME_C = 360;
const ABSOLUTE_LIMITS = Object.freeze({ mean: 140, max: 180, frame: ABSOLUTE_FRAME_C });

function absoluteRoles(): Record<string, TypeRole> {
  const roles: Record<string, TypeRole> = {};
  for (const name of MEASUREMENT_TYPE_NAMES) {
    const critical = criticalFor(name);
    roles[name] = Object.freeze({
      mean: critical.mean !== null,
      max: critical.max !== null && critical.max !== ABSOLUTE_FRAME_C,
      frame: critical.max === ABSOLUTE_FRAME_C,
    });
  }
  return roles;
}

/** The insulation class that applies: EN 1634-1 defaults to I2; other standards have none. */
export function effectiveInsulation(profile: Pick<TestProfile, 'standard' | 'insulation'>): InsulationClass | null {
  if (profile.standard !== 'EN_1634_1') return null;
  return profile.insulation ?? 'I2';
}

/** Which measurement types count for the mean, the max and the frame, and the limits (K or °C). */
export function profileRules(profile: TestProfile): ProfileRules {
  if (profile.criteria_basis === 'absolute') {
    return { byType: absoluteRoles(), limits: { ...ABSOLUTE_LIMITS }, basis: 'absolute' };
  }
  const frame = effectiveInsulation(profile) === 'I1' ? RISE_LIMITS.frameI1 : RISE_LIMITS.frameI2;
  return {
    byType: { ...PROFILE_TYPES[profile.standard] },
    limits: { mean: RISE_LIMITS.mean, max: RISE_LIMITS.max, frame },
    basis: 'rise',
  };
}

/** The role of a type in the rules; a type not in the table counts for nothing. */
export function roleOf(rules: ProfileRules, typeName: string): TypeRole {
  return rules.byType[typeName] ?? NONE;
}
