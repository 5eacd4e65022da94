import type { ResearchDto } from '@furnace/api-client';
import { NEW_RESEARCH_PROFILE, NEW_RESEARCH_REPORT, NEW_RESEARCH_REVIEW } from '@furnace/testing/research-body';

/**
 * The test-profile and T0 fields of a research as the API returns them for a new one, with its
 * classification shown to clients, on no furnace, and no test report field given (tests' fixtures). Insulation I2: the
 * generated ResearchDto does not allow its null. Running, never reviewed.
 */
export const PROFILE_FIELDS = {
  ...NEW_RESEARCH_PROFILE,
  insulation: 'I2',
  classification_to_clients: true,
  furnace_id: null,
  responsible_user_id: null,
  ...NEW_RESEARCH_REPORT,
  state: 'running',
  ...NEW_RESEARCH_REVIEW,
  archived_at: null,
  archived_by: null,
} as const satisfies Omit<
  ResearchDto,
  'id' | 'name' | 'start_at' | 'end_at' | 'is_radiance' | 'is_furnance' | 'is_pressure'
>;
