/**
 * SQL of the alarms (docs/architecture.md, "Alarms: raised once"). Exactly once whatever the number of API
 * instances: an open alarm is unique per (research, kind, subject) — the partial unique index UQ_alarm_open —
 * so two instances raising it insert one row, and each message is claimed with a conditional UPDATE of
 * next_notify_at, so one instance sends it.
 */

const ALARM_COLUMNS = `id, research_id, furnace_id, kind, subject, raised_at, details, acknowledged_at, acknowledged_by,
  cleared_at, last_notified_at, notify_count`;

/** Raises alarm ($2 kind, $3 subject) of research $1 with details $4, its first message due now; no row when it is open already. */
export const RAISE_SQL = `
  INSERT INTO alarm (research_id, furnace_id, kind, subject, details, next_notify_at)
  SELECT r.id, r.furnace_id, $2, $3, $4::jsonb, now() FROM research r WHERE r.id = $1
  ON CONFLICT (research_id, kind, subject) WHERE cleared_at IS NULL DO NOTHING
  RETURNING ${ALARM_COLUMNS}`;

/** Clears the open alarms of research $1 of kind $2 and subject $3 (either null: any). */
export const CLEAR_SQL = `
  UPDATE alarm SET cleared_at = now(), next_notify_at = NULL
  WHERE research_id = $1 AND cleared_at IS NULL AND ($2::varchar IS NULL OR kind = $2) AND ($3::varchar IS NULL OR subject = $3)
  RETURNING ${ALARM_COLUMNS}`;

/** Clears every open alarm of research $1 but those of the kinds $2 (the test ended). */
export const CLEAR_ALL_BUT_SQL = `
  UPDATE alarm SET cleared_at = now(), next_notify_at = NULL
  WHERE research_id = $1 AND cleared_at IS NULL AND kind <> ALL($2::varchar[])
  RETURNING ${ALARM_COLUMNS}`;

export const OPEN_KEYS_SQL = `SELECT kind, subject FROM alarm WHERE research_id = $1 AND cleared_at IS NULL`;

export const LIST_SQL = `SELECT ${ALARM_COLUMNS} FROM alarm WHERE research_id = $1 ORDER BY raised_at DESC, id LIMIT $2`;

export const FIND_SQL = `SELECT ${ALARM_COLUMNS} FROM alarm WHERE id = $1`;

/** Acknowledges alarm $1 by $2 (once): no more repeats. */
export const ACKNOWLEDGE_SQL = `
  UPDATE alarm SET acknowledged_at = now(), acknowledged_by = $2, next_notify_at = NULL
  WHERE id = $1 AND acknowledged_at IS NULL
  RETURNING ${ALARM_COLUMNS}`;

/**
 * Claims the messages due (at most $2), each for this instance alone: its next one is set $1 ms ahead. An
 * instance that claims a row sends its message; another that read the same row a moment before finds it locked
 * (SKIP LOCKED) or no longer due.
 */
export const CLAIM_DUE_SQL = `
  UPDATE alarm a SET next_notify_at = now() + $1 * INTERVAL '1 millisecond', last_notified_at = now(), notify_count = a.notify_count + 1
  WHERE a.id IN (
    SELECT id FROM alarm WHERE cleared_at IS NULL AND acknowledged_at IS NULL AND next_notify_at <= now()
    ORDER BY next_notify_at LIMIT $2 FOR UPDATE SKIP LOCKED)
  AND a.next_notify_at <= now()
  RETURNING a.*`;

/** Who is told of research $1's alarms: its responsible engineer, its furnace's watch list and webhook. */
export const RECIPIENTS_SQL = `
  SELECT r.name AS research_name, u.email AS responsible_email, f.id AS furnace_id, f.code AS furnace_code,
    f.name AS furnace_name, f.watch_emails, f.webhook_url, f.webhook_secret
  FROM research r
  LEFT JOIN users u ON u.id = r.responsible_user_id AND u.is_active
  LEFT JOIN furnace f ON f.id = r.furnace_id
  WHERE r.id = $1`;

export const LOG_DELIVERY_SQL = `
  INSERT INTO alarm_delivery (alarm_id, channel, target, message, attempt, status, error)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`;

/** The wall-clock time the newest frame of research $1 was received (null: none yet). */
export const LAST_FRAME_AT_SQL = `
  SELECT coalesce(received_at, ts) AS at FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1`;

/** Scan period of research $1's furnace (null: no furnace), its window and whether it was stopped. */
export const WATCHED_SQL = `
  SELECT r.start_at, r.end_at, f.scan_period_s,
    EXISTS (SELECT 1 FROM observation o WHERE o.research_id = r.id AND o.kind = 'test_stopped') AS stopped
  FROM research r LEFT JOIN furnace f ON f.id = r.furnace_id WHERE r.id = $1`;

/**
 * Running tests (their window holds now, not stopped, not archived, at least one frame stored) whose criteria no
 * instance keeps: one of them takes each, so a DAQ gone silent is noticed though no frame comes. Asked every few
 * seconds: "a frame stored" is the first by the readings' key, never a scan of the readings (docs/architecture.md,
 * "Looking up a test's frames").
 */
export const UNWATCHED_SQL = `
  SELECT r.id FROM research r
  LEFT JOIN criteria_state s ON s.research_id = r.id
  WHERE r.start_at <= now() AND r.end_at > now() AND r.archived_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM observation o WHERE o.research_id = r.id AND o.kind = 'test_stopped')
    AND (SELECT true FROM reading g WHERE g.research_id = r.id ORDER BY g."time" LIMIT 1)
    AND (s.research_id IS NULL OR s.owner IS NULL OR s.lease_until IS NULL OR s.lease_until < now())
  LIMIT 50`;
