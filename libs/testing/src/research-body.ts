let seq = 0;

/**
 * The body of POST /research: a research running from an hour ago for four hours, furnace and
 * radiance measured, the default test profile; `overrides` replace or add any field.
 */
export function researchBody<T extends object = object>(overrides?: T) {
  seq += 1;
  const now = Date.now();
  return {
    name: `Ściana EI ${60 + seq}`,
    start_at: new Date(now - 3600_000).toISOString(),
    end_at: new Date(now + 3 * 3600_000).toISOString(),
    is_radiance: true,
    is_furnance: true,
    is_pressure: false,
    ...overrides,
  };
}

/** A door tested to EN 1634-1 for 60 minutes (insulation I2, the doors' default), furnace pressure 20 ± 3 Pa. */
export const DOOR_PROFILE = {
  standard: 'EN_1634_1',
  insulation: 'I2',
  planned_duration_min: 60,
  pressure_target_pa: 20,
  pressure_tolerance_pa: 3,
} as const;

/** The test profile and T0 fields the API gives a research created without them: rise basis, EN 1363-1, ISO 834, nothing planned. */
export const NEW_RESEARCH_PROFILE = {
  standard: 'EN_1363_1',
  insulation: null,
  heating_curve: 'iso834',
  criteria_basis: 'rise',
  planned_duration_min: null,
  pressure_target_pa: null,
  pressure_tolerance_pa: null,
  t0_override: null,
  t0_set_by: null,
  t0_set_at: null,
} as const;

/** The test report fields (EN 1363-1 §12) the API gives a research created without them: none given. */
export const NEW_RESEARCH_REPORT = {
  sponsor: null,
  manufacturer: null,
  specimen_description: null,
  conditioning: null,
  supporting_construction: null,
  exposed_side: null,
  ambient_temperature_c: null,
  pressure_height_mm: null,
  end_reason: null,
  deviations: null,
  report_number: null,
  report_date: null,
} as const;

/** The review fields the API gives a research never reviewed, approved nor reopened (its state follows from its schedule). */
export const NEW_RESEARCH_REVIEW = {
  approved_revision: null,
  reviewed_by: null,
  reviewed_at: null,
  review_comment: null,
  approved_by: null,
  approved_at: null,
  approval_comment: null,
  reopened_by: null,
  reopened_at: null,
  reopen_reason: null,
} as const;
