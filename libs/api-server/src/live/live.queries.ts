/** The live stream's own SQL (the shared questions about a research: @furnace/db research.queries.ts). */

/** The research $1's stored frames after $2 (all when null), in time order, at most $3. */
export const FRAMES_SINCE_SQL = `SELECT "time", radiance, pressure, pk, thermocouples FROM reading
  WHERE research_id = $1 AND ($2::double precision IS NULL OR "time" > $2) ORDER BY "time" LIMIT $3`;

/** Redeems the stream tickets $1 (their SHA-256) not yet expired: each is deleted as it is read, so it opens one stream at most (stream-tickets.ts). */
export const TAKE_TICKETS =
  'DELETE FROM stream_ticket WHERE id = ANY($1::text[]) AND expires_at >= now() RETURNING id, research_id, user_id, email_id, credential_expires_at';

export const DELETE_EXPIRED_TICKETS = 'DELETE FROM stream_ticket WHERE expires_at < now()';

/** The tickets bought with the access of user $1, or of client e-mail record $1, once it is revoked. */
export const DELETE_TICKETS_OF_USER = 'DELETE FROM stream_ticket WHERE user_id = $1';
export const DELETE_TICKETS_OF_EMAIL = 'DELETE FROM stream_ticket WHERE email_id = $1';
