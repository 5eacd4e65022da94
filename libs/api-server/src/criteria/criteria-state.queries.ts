/**
 * SQL of the kept criteria (criteria_state; docs/architecture.md, "The criteria: computed once, kept,
 * pushed"). The lease: an instance keeps a research's state only while its row names it as owner and
 * lease_until lies ahead; a row whose lease ran out (its owner died or stalled) may be taken by any.
 */

/**
 * Takes the lease of research $1 for owner $2 for $3 ms, creating the row (with no state yet) on first
 * use; returns the kept state when taken, no row when another instance holds it (or no such research).
 */
export const ACQUIRE_SQL = `
  INSERT INTO criteria_state (research_id, input_hash, covered_time, frame_count, state, view_hash, staff_view, client_view, owner, lease_until)
  SELECT $1, '', NULL, 0, '', '', 'null'::jsonb, 'null'::jsonb, $2, now() + $3 * INTERVAL '1 millisecond'
  WHERE EXISTS (SELECT 1 FROM research WHERE id = $1)
  ON CONFLICT (research_id) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
    WHERE criteria_state.owner IS NULL OR criteria_state.owner = EXCLUDED.owner OR criteria_state.lease_until IS NULL OR criteria_state.lease_until < now()
  RETURNING input_hash, covered_time, frame_count, state`;

/** Extends owner $1's leases of the researches $2 by $3 ms; returns those still held. */
export const RENEW_SQL = `
  UPDATE criteria_state SET lease_until = now() + $3 * INTERVAL '1 millisecond'
  WHERE owner = $1 AND research_id = ANY($2::uuid[])
  RETURNING research_id`;

export const RELEASE_SQL = `UPDATE criteria_state SET owner = NULL, lease_until = NULL WHERE research_id = $1 AND owner = $2`;

/** The whole kept state of research $1, written by its owner $2 only. */
export const SAVE_STATE_SQL = `
  UPDATE criteria_state SET input_hash = $3, covered_time = $4, frame_count = $5, state = $6, view_hash = $7, staff_view = $8::jsonb, client_view = $9::jsonb, updated_at = now()
  WHERE research_id = $1 AND owner = $2`;

/** The views only (each time they are pushed): an instance that starts later answers with them. */
export const SAVE_VIEWS_SQL = `
  UPDATE criteria_state SET view_hash = $3, staff_view = $4::jsonb, client_view = $5::jsonb, updated_at = now()
  WHERE research_id = $1 AND owner = $2`;

export const READ_VIEWS_SQL = `
  SELECT view_hash, staff_view, client_view, covered_time, (owner IS NOT NULL AND lease_until > now()) AS leased
  FROM criteria_state WHERE research_id = $1 AND view_hash <> ''`;

/** Stored frames of research $1 from $2 (s) up to $3 (s): what the kept state should have seen. */
export const COUNT_FRAMES_SQL = `SELECT count(*)::int AS n FROM reading WHERE research_id = $1 AND "time" >= $2 AND "time" <= $3`;
