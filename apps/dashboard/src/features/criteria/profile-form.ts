import { DEFAULT_TEST_PROFILE, type CriteriaBasis, type HeatingCurveId, type InsulationClass, type TestProfile, type TestStandard, TEST_STANDARDS } from '@furnace/contracts';
import { z } from 'zod';
import type { ValidationKey } from '../../i18n';

/*
 * The test profile of a research as a form edits it (create page and edit page): the selects hold the
 * wire ids, the number inputs hold a number or '' for "not set".
 */

const msg = (key: ValidationKey) => key;

const STANDARD_IDS = ['EN_1363_1', 'EN_1634_1', 'EN_1364_1', 'DIN_4102_5'] as const satisfies readonly TestStandard[];
const CURVE_IDS = ['iso834', 'hydrocarbon', 'external', 'slow'] as const satisfies readonly HeatingCurveId[];

/** An optional number input: '' (not set) or a number within [min, max] (integer when asked). */
const optionalNumber = (min: number, max: number, message: ValidationKey, integer = false) =>
  z.union([
    z.literal(''),
    z
      .number(msg(message))
      .min(min, msg(message))
      .max(max, msg(message))
      .refine((v) => !integer || Number.isInteger(v), msg(message)),
  ]);

export const profileSchema = z.object({
  standard: z.enum(STANDARD_IDS),
  insulation: z.enum(['I1', 'I2']).nullable(),
  heating_curve: z.enum(CURVE_IDS),
  criteria_basis: z.enum(['rise', 'absolute']),
  planned_duration_min: optionalNumber(1, 1440, 'validation.profileDurationInvalid', true),
  pressure_target_pa: optionalNumber(-1000, 1000, 'validation.profilePressureInvalid'),
  pressure_tolerance_pa: optionalNumber(0, 1000, 'validation.profileToleranceInvalid'),
});
export type ProfileValues = z.input<typeof profileSchema>;

/** Whether the standard is a door or shutter one (the insulation class I1/I2 applies). */
export function isDoorStandard(standard: TestStandard): boolean {
  return TEST_STANDARDS.find((s) => s.id === standard)?.door ?? false;
}

const orEmpty = (value: number | null | undefined): number | '' => (value === null || value === undefined ? '' : value);
const orNull = (value: number | ''): number | null => (value === '' ? null : value);

/** A research's profile (or the default of a new one) as form values. */
export function toProfileValues(profile: Partial<TestProfile> | null | undefined): ProfileValues {
  const p = { ...DEFAULT_TEST_PROFILE, ...(profile ?? {}) };
  return {
    standard: p.standard,
    insulation: p.insulation,
    heating_curve: p.heating_curve,
    criteria_basis: p.criteria_basis,
    planned_duration_min: orEmpty(p.planned_duration_min),
    pressure_target_pa: orEmpty(p.pressure_target_pa),
    pressure_tolerance_pa: orEmpty(p.pressure_tolerance_pa),
  };
}

/** The form's values as the API's profile fields: the insulation class only for a door standard (I2 when unset). */
export function toTestProfile(values: ProfileValues): TestProfile {
  const door = isDoorStandard(values.standard);
  return {
    standard: values.standard,
    insulation: door ? (values.insulation ?? 'I2') : null,
    heating_curve: values.heating_curve,
    criteria_basis: values.criteria_basis as CriteriaBasis,
    planned_duration_min: orNull(values.planned_duration_min),
    pressure_target_pa: orNull(values.pressure_target_pa),
    pressure_tolerance_pa: orNull(values.pressure_tolerance_pa),
  };
}

export type { InsulationClass };
