import type { ResearchEntity } from '@furnace/db';

/**
 * A test's life (docs/behaviour.md, "The permanent record"): planned → running → ended follow from the schedule,
 * the frames and a test_stopped observation (ended as CriteriaKeeper decides it); reviewed and approved are
 * stored, each by a member of staff, and a superuser's reopening goes back to ended.
 */
export const RESEARCH_STATES = ['planned', 'running', 'ended', 'reviewed', 'approved'] as const;
export type ResearchState = (typeof RESEARCH_STATES)[number];

type StateFields = Pick<
  ResearchEntity,
  'startAt' | 'endAt' | 'reviewedAt' | 'approvedRevision' | 'testStopped' | 'ignited'
>;

/** Ended: past its scheduled end, or stopped by an observation (whatever the schedule says). */
function hasEnded(r: Pick<StateFields, 'endAt' | 'testStopped'>, now = Date.now()): boolean {
  return now > r.endAt.getTime() || r.testStopped === true;
}

/** The research's state now. `testStopped` and `ignited` are read with the research (false for one just created). */
export function researchState(r: StateFields, now = Date.now()): ResearchState {
  if (r.approvedRevision != null) return 'approved';
  if (r.reviewedAt != null) return 'reviewed';
  if (hasEnded(r, now)) return 'ended';
  if (now >= r.startAt.getTime() || r.ignited === true) return 'running';
  return 'planned';
}

/** A new research's review columns: neither reviewed, approved nor reopened. */
export const NOT_REVIEWED: Pick<
  ResearchEntity,
  | 'reviewedBy'
  | 'reviewedAt'
  | 'reviewComment'
  | 'approvedBy'
  | 'approvedAt'
  | 'approvalComment'
  | 'approvedRevision'
  | 'reopenedBy'
  | 'reopenedAt'
  | 'reopenReason'
> = Object.freeze({
  reviewedBy: null,
  reviewedAt: null,
  reviewComment: null,
  approvedBy: null,
  approvedAt: null,
  approvalComment: null,
  approvedRevision: null,
  reopenedBy: null,
  reopenedAt: null,
  reopenReason: null,
});
