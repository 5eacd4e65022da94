import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@furnace/contracts';
import { ResearchEmailEntity, ThermoConfigEntity } from '@furnace/db';
import type { ResearchTargetKind } from './access.decorator';

/** The lookups access decisions need: which research a resource belongs to, and whether a client is still invited. */
@Injectable()
export class ResearchOwnershipRepository {
  constructor(private readonly dataSource: DataSource) {}

  async researchOf(kind: ResearchTargetKind, id: string | undefined): Promise<string | null> {
    if (!isUuid(id)) return null;
    if (kind === 'research') return id.toLowerCase();
    const row = await this.dataSource.getRepository(ThermoConfigEntity).findOne({ where: { id }, select: { researchId: true } });
    return row?.researchId ?? null;
  }

  /** True while the e-mail record (the client's code) exists for that research. */
  async isInvited(emailId: string, researchId: string): Promise<boolean> {
    if (!isUuid(emailId) || !isUuid(researchId)) return false;
    return this.dataSource.getRepository(ResearchEmailEntity).existsBy({ id: emailId, researchId });
  }
}
