import type { ResearchEntity } from '@furnace/db';

/**
 * Whether a research is approved: its record is then final, so deleting it is refused (409) and a superuser
 * archives it instead (docs/behaviour.md, "The audit trail"). The test's lifecycle marks an approval on the
 * research (`approvedRevision`); a research without that field is not approved.
 */
export function isApproved(research: ResearchEntity): boolean {
  const approved = (research as { approvedRevision?: unknown }).approvedRevision;
  return approved !== undefined && approved !== null;
}
