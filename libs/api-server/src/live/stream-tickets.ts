import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StreamTicketEntity } from '@furnace/db';
import type { Principal } from '../auth/principal';
import type { Revocation } from '../auth/revocations';
import { batched } from '../core/batched';
import { DELETE_EXPIRED_TICKETS, DELETE_TICKETS_OF_EMAIL, DELETE_TICKETS_OF_USER, TAKE_TICKETS } from './live.queries';

/** How long a ticket may wait before it is used: the dashboard connects right after buying it. */
const STREAM_TICKET_SECONDS = 30;

/** What a ticket opened the stream for: whose access it is and until when it holds. */
export interface TicketHolder {
  userId: string | null;
  emailId: string | null;
  credentialExpiresAt: Date;
}

const digest = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** How often an instance drops expired tickets as it issues new ones (ms). */
const SWEEP_EVERY_MS = 5_000;

type TicketRow = Pick<
  StreamTicketEntity,
  'id' | 'researchId' | 'userId' | 'emailId' | 'expiresAt' | 'credentialExpiresAt'
>;
type RedeemedRow = {
  id: string;
  research_id: string | null;
  user_id: string | null;
  email_id: string | null;
  credential_expires_at: Date | string;
};

/**
 * Single-use tickets for the live stream's URL, so that no long-lived credential (an 8-day staff
 * token, a client's code) is ever put in a URL, where proxies, logs and browser history keep it.
 * Kept in the database (only their SHA-256), so any API instance can redeem one another issued; a
 * redeemed ticket is deleted in the same statement that reads it, so it opens one stream at most.
 * The tickets issued, and those redeemed, in one turn of the event loop are one statement each
 * (core/batched.ts): a crowd opening a live view at once.
 */
@Injectable()
export class StreamTickets {
  private sweptAt = 0;

  private readonly insert = batched(async (rows: readonly TicketRow[]) => {
    await this.dataSource.getRepository(StreamTicketEntity).insert([...rows]);
    return rows.map(() => true);
  });

  private readonly take = batched(async (ids: readonly string[]) => {
    const result: unknown[] = await this.dataSource.query(TAKE_TICKETS, [ids]);
    // TypeORM answers a DELETE … RETURNING on PostgreSQL as [rows, count]; be indifferent to the driver's shape.
    const rows = (Array.isArray(result[0]) ? result[0] : result) as RedeemedRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });

  constructor(private readonly dataSource: DataSource) {}

  /** `researchId` null: a ticket to the lab overview's stream (a staff user's only: its route says so). */
  async issue(researchId: string | null, principal: Principal): Promise<{ ticket: string; expiresIn: number }> {
    const ticket = randomBytes(32).toString('base64url');
    // Expired tickets are dropped as new ones are issued (at most every few seconds per instance, not per
    // ticket: a crowd would double its statements): the table holds the last half minute's.
    if (Date.now() - this.sweptAt >= SWEEP_EVERY_MS) {
      this.sweptAt = Date.now();
      await this.dataSource.query(DELETE_EXPIRED_TICKETS);
    }
    await this.insert({
      id: digest(ticket),
      researchId,
      userId: principal.kind === 'user' ? principal.user.id : null,
      emailId: principal.kind === 'viewer' ? principal.emailId : null,
      expiresAt: new Date(Date.now() + STREAM_TICKET_SECONDS * 1000),
      // Bought with a token (the ticket route takes bearer tokens only); a code would last until revoked.
      credentialExpiresAt: principal.expiresAt ?? new Date(Date.now() + 365 * 24 * 3600_000),
    });
    return { ticket, expiresIn: STREAM_TICKET_SECONDS };
  }

  /** Redeems a ticket for this research (null: the lab overview): who it was issued to, or null (unknown, used, expired or another stream's). */
  async redeem(ticket: string, researchId: string | null): Promise<TicketHolder | null> {
    if (!/^[\w-]{20,100}$/.test(ticket)) return null;
    const row = await this.take(digest(ticket));
    if (!row || row.research_id !== researchId) return null;
    return { userId: row.user_id, emailId: row.email_id, credentialExpiresAt: new Date(row.credential_expires_at) };
  }

  /** Tickets bought with access that was just revoked are void as well. */
  async forget(revocation: Revocation): Promise<void> {
    if ('user' in revocation) await this.dataSource.query(DELETE_TICKETS_OF_USER, [revocation.user]);
    else await this.dataSource.query(DELETE_TICKETS_OF_EMAIL, [revocation.email]);
  }
}
