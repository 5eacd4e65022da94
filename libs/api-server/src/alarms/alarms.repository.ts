import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ALARM_KINDS, type AlarmKind, type AlarmView } from '@furnace/contracts';
import {
  ACKNOWLEDGE_SQL,
  CLAIM_DUE_SQL,
  CLEAR_ALL_BUT_SQL,
  CLEAR_SQL,
  FIND_SQL,
  LAST_FRAME_AT_SQL,
  LIST_SQL,
  LOG_DELIVERY_SQL,
  OPEN_KEYS_SQL,
  RAISE_SQL,
  RECIPIENTS_SQL,
  UNWATCHED_SQL,
  WATCHED_SQL,
} from './alarms.queries';

interface AlarmRow {
  id: string;
  research_id: string;
  furnace_id: string | null;
  kind: string;
  subject: string;
  raised_at: Date;
  details: Record<string, unknown> | null;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
  cleared_at: Date | null;
  last_notified_at: Date | null;
  notify_count: number;
}

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

const toView = (r: AlarmRow): AlarmView => ({
  id: r.id,
  research_id: r.research_id,
  furnace_id: r.furnace_id,
  kind: (ALARM_KINDS as readonly string[]).includes(r.kind) ? (r.kind as AlarmKind) : 'silence',
  subject: r.subject,
  raised_at: iso(r.raised_at)!,
  details: r.details ?? {},
  acknowledged_at: iso(r.acknowledged_at),
  acknowledged_by: r.acknowledged_by,
  cleared_at: iso(r.cleared_at),
  last_notified_at: iso(r.last_notified_at),
  notify_count: r.notify_count,
});

/** An UPDATE … RETURNING answers [rows, count] through TypeORM's PostgreSQL driver. */
function returned(result: unknown): AlarmRow[] {
  const rows = result as unknown[];
  return Array.isArray(rows[0]) ? (rows[0] as AlarmRow[]) : (rows as AlarmRow[]);
}

export interface Recipients {
  researchName: string;
  responsibleEmail: string | null;
  furnace: { id: string; code: string; name: string } | null;
  watchEmails: string[];
  webhook: { url: string; secret: string } | null;
}

export interface Watched {
  startAt: Date;
  endAt: Date;
  /** The research's furnace's scan period; null: no furnace. */
  scanPeriodS: number | null;
  stopped: boolean;
}

/** All database I/O of the alarms. */
@Injectable()
export class AlarmsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The alarm raised, or null when one of the same kind and subject is open already (another instance raised it). */
  async raise(researchId: string, kind: AlarmKind, subject: string, details: object): Promise<AlarmView | null> {
    const rows: AlarmRow[] = await this.dataSource.query(RAISE_SQL, [
      researchId,
      kind,
      subject,
      JSON.stringify(details),
    ]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The alarms cleared (of a kind and subject; null: any). */
  async clear(researchId: string, kind: AlarmKind | null, subject: string | null): Promise<AlarmView[]> {
    return returned(await this.dataSource.query(CLEAR_SQL, [researchId, kind, subject])).map(toView);
  }

  async clearAllBut(researchId: string, keep: AlarmKind[]): Promise<AlarmView[]> {
    return returned(await this.dataSource.query(CLEAR_ALL_BUT_SQL, [researchId, keep])).map(toView);
  }

  async openKeys(researchId: string): Promise<Set<string>> {
    const rows: { kind: string; subject: string }[] = await this.dataSource.query(OPEN_KEYS_SQL, [researchId]);
    return new Set(rows.map((r) => `${r.kind}|${r.subject}`));
  }

  async list(researchId: string, limit = 500): Promise<AlarmView[]> {
    const rows: AlarmRow[] = await this.dataSource.query(LIST_SQL, [researchId, limit]);
    return rows.map(toView);
  }

  async find(id: string, run = this.dataSource.manager): Promise<AlarmView | null> {
    const rows: AlarmRow[] = await run.query(FIND_SQL, [id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The alarm acknowledged now by `by`; null when it was acknowledged already (or does not exist). */
  async acknowledge(id: string, by: string, run = this.dataSource.manager): Promise<AlarmView | null> {
    const rows = returned(await run.query(ACKNOWLEDGE_SQL, [id, by]));
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The messages due, claimed by this instance (the next of each set `repeatMs` ahead). */
  async claimDue(repeatMs: number, limit = 20): Promise<AlarmView[]> {
    return returned(await this.dataSource.query(CLAIM_DUE_SQL, [repeatMs, limit])).map(toView);
  }

  async recipients(researchId: string): Promise<Recipients | null> {
    const rows: {
      research_name: string;
      responsible_email: string | null;
      furnace_id: string | null;
      furnace_code: string | null;
      furnace_name: string | null;
      watch_emails: string[] | null;
      webhook_url: string | null;
      webhook_secret: string | null;
    }[] = await this.dataSource.query(RECIPIENTS_SQL, [researchId]);
    const r = rows[0];
    if (!r) return null;
    return {
      researchName: r.research_name,
      responsibleEmail: r.responsible_email,
      furnace: r.furnace_id ? { id: r.furnace_id, code: r.furnace_code!, name: r.furnace_name! } : null,
      watchEmails: r.watch_emails ?? [],
      webhook: r.webhook_url && r.webhook_secret ? { url: r.webhook_url, secret: r.webhook_secret } : null,
    };
  }

  async logDelivery(entry: {
    alarmId: string;
    channel: 'email' | 'webhook';
    target: string;
    message: number;
    attempt: number;
    status: 'sent' | 'failed';
    error: string | null;
  }): Promise<void> {
    await this.dataSource.query(LOG_DELIVERY_SQL, [
      entry.alarmId,
      entry.channel,
      entry.target.slice(0, 2000),
      entry.message,
      entry.attempt,
      entry.status,
      entry.error?.slice(0, 2000) ?? null,
    ]);
  }

  async lastFrameAt(researchId: string): Promise<Date | null> {
    const rows: { at: Date }[] = await this.dataSource.query(LAST_FRAME_AT_SQL, [researchId]);
    return rows[0] ? new Date(rows[0].at) : null;
  }

  async watched(researchId: string): Promise<Watched | null> {
    const rows: { start_at: Date; end_at: Date; scan_period_s: number | null; stopped: boolean }[] =
      await this.dataSource.query(WATCHED_SQL, [researchId]);
    const r = rows[0];
    return r
      ? { startAt: new Date(r.start_at), endAt: new Date(r.end_at), scanPeriodS: r.scan_period_s, stopped: r.stopped }
      : null;
  }

  async unwatched(): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(UNWATCHED_SQL, []);
    return rows.map((r) => r.id);
  }
}
