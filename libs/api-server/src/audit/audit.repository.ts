import { Injectable } from '@nestjs/common';
import { And, DataSource, type FindOperator, type FindOptionsWhere, In, LessThan, MoreThanOrEqual } from 'typeorm';
import { AuditEntryEntity, ResearchEntity } from '@furnace/db';

export interface AuditFilter {
  actor?: string;
  researchId?: string;
  /** At or after. */
  from?: Date;
  /** Before. */
  to?: Date;
}

/** Reads the audit trail (AuditService writes it). */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The entries matching, newest first (by id: the entries of one transaction share their `at`), one page of them,
   * and how many match in all. The indexes (research_id, id) and (actor, id) serve a test's and a user's trail.
   */
  async page(filter: AuditFilter, skip: number, take: number): Promise<{ data: AuditEntryEntity[]; count: number }> {
    const where: FindOptionsWhere<AuditEntryEntity> = {};
    if (filter.actor !== undefined) where.actor = filter.actor;
    if (filter.researchId !== undefined) where.researchId = filter.researchId;
    const at: FindOperator<Date>[] = [];
    if (filter.from) at.push(MoreThanOrEqual(filter.from));
    if (filter.to) at.push(LessThan(filter.to));
    if (at.length) where.at = And(...at);
    const [data, count] = await this.dataSource
      .getRepository(AuditEntryEntity)
      .findAndCount({ where, order: { id: 'DESC' }, skip, take });
    return { data, count };
  }

  /** The names of the researches that still exist among `ids`. */
  async researchNames(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.dataSource
      .getRepository(ResearchEntity)
      .find({ where: { id: In(ids) }, select: { id: true, name: true } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
