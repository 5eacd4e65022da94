import type { ResearchDto } from '@furnace/api-client';

/** The test-profile and T0 fields of a research as the API returns them for a new one (tests' fixtures). */
export const PROFILE_FIELDS = {
  standard: 'EN_1363_1',
  insulation: 'I2',
  heating_curve: 'iso834',
  criteria_basis: 'rise',
  planned_duration_min: null,
  pressure_target_pa: null,
  pressure_tolerance_pa: null,
  t0_override: null,
  t0_set_by: null,
  t0_set_at: null,
} as const satisfies Omit<ResearchDto, 'id' | 'name' | 'start_at' | 'end_at' | 'is_radiance' | 'is_furnance' | 'is_pressure'>;
