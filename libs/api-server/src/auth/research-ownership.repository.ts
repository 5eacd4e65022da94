import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@furnace/contracts';
import { batched } from '../core/batched';
import type { ResearchTargetKind } from './access.decorator';

/**
 * The lookups access decisions need: which research a resource belongs to, and whether a client is
 * still invited. Every request makes them, so the calls of one turn of the event loop are one
 * statement (core/batched.ts): a crowd opening a live view does not queue on the connection pool.
 */
@Injectable()
export class ResearchOwnershipRepository {
  /** E-mail record id → its research, or null when there is no such record. */
  private readonly invitedTo = batched(async (ids: readonly string[]) => {
    const rows: { id: string; research_id: string }[] = await this.dataSource.query(
      'SELECT id, research_id FROM research_email WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const research = new Map(rows.map((r) => [r.id, r.research_id]));
    return ids.map((id) => research.get(id) ?? null);
  });

  /** Thermocouple config id → its research, or null. */
  private readonly configResearch = batched(async (ids: readonly string[]) => {
    const rows: { id: string; research_id: string }[] = await this.dataSource.query(
      'SELECT id, research_id FROM thermo_config WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const research = new Map(rows.map((r) => [r.id, r.research_id]));
    return ids.map((id) => research.get(id) ?? null);
  });

  constructor(private readonly dataSource: DataSource) {}

  async researchOf(kind: ResearchTargetKind, id: string | undefined): Promise<string | null> {
    if (!isUuid(id)) return null;
    if (kind === 'research') return id.toLowerCase();
    return this.configResearch(id.toLowerCase());
  }

  /** True while the e-mail record (the client's code) exists for that research. */
  async isInvited(emailId: string, researchId: string): Promise<boolean> {
    if (!isUuid(emailId) || !isUuid(researchId)) return false;
    return (await this.invitedTo(emailId.toLowerCase())) === researchId.toLowerCase();
  }
}
