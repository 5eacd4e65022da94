import type { ResearchDto } from '@furnace/api-client';
import type { UnassignedRange } from '../../api/furnaces';
import { datetimeLocalToIso, isoToDatetimeLocal } from '../../lib/dates';

/*
 * What the attach dialog decides (docs/behaviour.md §15.1): which tests may take a range of a furnace's unassigned
 * readings, and the times it sends. Plain functions: the dialog only wires them.
 */

/** A test's schedule as the attach dialog reads it. */
export type AttachCandidate = Pick<ResearchDto, 'id' | 'name' | 'start_at' | 'end_at' | 'furnace_id' | 'state'>;

const overlaps = (test: AttachCandidate, range: UnassignedRange) =>
  Date.parse(test.start_at) <= Date.parse(range.to) && Date.parse(range.from) < Date.parse(test.end_at);

/**
 * The tests that may take the furnace's readings: scheduled on it and not approved (the API refuses the others,
 * 409). Those whose window [start_at, end_at) meets the range come first (the one the readings most likely belong
 * to), then the rest, newest start first. The list holds no archived test: the research list leaves them out.
 */
export function attachCandidates(
  tests: readonly AttachCandidate[],
  furnaceId: string,
  range: UnassignedRange,
): { tests: AttachCandidate[]; suggested: string | null } {
  const onFurnace = tests
    .filter((t) => t.furnace_id === furnaceId && t.state !== 'approved')
    .sort((a, b) => Number(overlaps(b, range)) - Number(overlaps(a, range)) || b.start_at.localeCompare(a.start_at));
  const first = onFurnace[0];
  return { tests: onFurnace, suggested: first && overlaps(first, range) ? first.id : null };
}

/** The dialog's time fields: datetime-local to the second, in the browser's time zone. */
export interface RangeFields {
  from: string;
  to: string;
}

export const rangeFields = (range: UnassignedRange): RangeFields => ({
  from: isoToDatetimeLocal(range.from, true),
  to: isoToDatetimeLocal(range.to, true),
});

export type RangeError = 'fromInvalid' | 'toInvalid' | 'toBeforeFrom';

/**
 * The instants sent for the fields. A field left as it came sends the range's own instant (the readings' times
 * carry milliseconds the field does not show); a field narrowed to a second means all of that second: `from`
 * its start, `to` its end.
 */
export function attachTimes(
  range: UnassignedRange,
  fields: RangeFields,
): { from: string; to: string } | { error: RangeError } {
  const initial = rangeFields(range);
  const from = fields.from === initial.from ? range.from : datetimeLocalToIso(fields.from);
  if (from === null) return { error: 'fromInvalid' };
  const toStart = fields.to === initial.to ? range.to : datetimeLocalToIso(fields.to);
  if (toStart === null) return { error: 'toInvalid' };
  const to = fields.to === initial.to ? toStart : new Date(Date.parse(toStart) + 999).toISOString();
  if (Date.parse(to) < Date.parse(from)) return { error: 'toBeforeFrom' };
  return { from, to };
}
