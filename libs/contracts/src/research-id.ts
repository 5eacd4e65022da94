import { z } from 'zod';
import { UUID_PATTERN } from './shared-rules';

/**
 * Research ids are UUIDs (PostgreSQL `uuid`). Any version is accepted, hex in either case;
 * helpers that build topic or channel names return the lowercase form, as PostgreSQL prints it,
 * so that the ingest and the API always agree on the name.
 */
export const RESEARCH_ID_PATTERN = UUID_PATTERN;

export const researchIdSchema = z
  .string()
  .regex(RESEARCH_ID_PATTERN, { error: 'expected a research id (UUID)' })
  .transform((id) => id.toLowerCase());

export function isResearchId(value: unknown): value is string {
  return typeof value === 'string' && RESEARCH_ID_PATTERN.test(value);
}

/** Lowercase form of a research id; throws on anything that is not a UUID (a programming error). */
export function normaliseResearchId(researchId: string): string {
  if (!isResearchId(researchId)) {
    throw new TypeError(`not a research id (UUID): ${JSON.stringify(researchId)}`);
  }
  return researchId.toLowerCase();
}
