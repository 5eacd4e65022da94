import type { ResearchDto } from '@furnace/api-client';
import { NEW_RESEARCH_PROFILE } from '@furnace/testing/research-body';

/**
 * The test-profile and T0 fields of a research as the API returns them for a new one (tests'
 * fixtures). Insulation I2: the generated ResearchDto does not allow its null.
 */
export const PROFILE_FIELDS = { ...NEW_RESEARCH_PROFILE, insulation: 'I2' } as const satisfies Omit<ResearchDto, 'id' | 'name' | 'start_at' | 'end_at' | 'is_radiance' | 'is_furnance' | 'is_pressure'>;
