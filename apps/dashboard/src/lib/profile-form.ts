import { type TestProfile } from '@furnace/contracts';
import {
  CRITERIA_BASES,
  DEFAULT_TEST_PROFILE,
  HEATING_CURVE_IDS,
  INSULATION_CLASSES,
  isDoorStandard,
  TEST_STANDARD_IDS,
} from '@furnace/criteria';
import { z } from 'zod';
import type { ValidationKey } from '../i18n';

/*
 * The test profile of a research as a form edits it (create page and edit page): the selects hold the
 * wire ids, the number inputs hold a number or '' for "not set".
 */

const msg = (key: ValidationKey) => key;

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

export const testProfileFormSchema = z.object({
  standard: z.enum(TEST_STANDARD_IDS),
  insulation: z.enum(INSULATION_CLASSES).nullable(),
  heating_curve: z.enum(HEATING_CURVE_IDS),
  criteria_basis: z.enum(CRITERIA_BASES),
  planned_duration_min: optionalNumber(1, 1440, 'validation.profileDurationInvalid', true),
  pressure_target_pa: optionalNumber(-1000, 1000, 'validation.profilePressureInvalid'),
  pressure_tolerance_pa: optionalNumber(0, 1000, 'validation.profileToleranceInvalid'),
});
export type ProfileValues = z.input<typeof testProfileFormSchema>;

const orEmpty = (value: number | null | undefined): number | '' => (value === null || value === undefined ? '' : value);
const orNull = (value: number | ''): number | null => (value === '' ? null : value);

/** A research's profile fields (or the default of a new one: null) as form values. */
export function toProfileValues(research: Partial<TestProfile> | object | null | undefined): ProfileValues {
  const given = (research ?? {}) as Partial<TestProfile>;
  const p: TestProfile = { ...DEFAULT_TEST_PROFILE };
  for (const key of Object.keys(DEFAULT_TEST_PROFILE) as (keyof TestProfile)[]) {
    if (given[key] !== undefined) (p as unknown as Record<string, unknown>)[key] = given[key];
  }
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
function toTestProfile(values: ProfileValues): TestProfile {
  const door = isDoorStandard(values.standard);
  return {
    standard: values.standard,
    insulation: door ? (values.insulation ?? 'I2') : null,
    heating_curve: values.heating_curve,
    criteria_basis: values.criteria_basis,
    planned_duration_min: orNull(values.planned_duration_min),
    pressure_target_pa: orNull(values.pressure_target_pa),
    pressure_tolerance_pa: orNull(values.pressure_tolerance_pa),
  };
}

/** The profile as fields of the research create/update body: the insulation class sent only for a door standard. */
export function toProfileBody(values: ProfileValues): Omit<TestProfile, 'insulation'> & { insulation?: 'I1' | 'I2' } {
  const { insulation, ...rest } = toTestProfile(values);
  return insulation === null ? rest : { ...rest, insulation };
}
