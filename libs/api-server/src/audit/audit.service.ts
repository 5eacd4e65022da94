import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditEntryEntity } from '@furnace/db';

/** What a change writes to the audit trail (docs/behaviour.md, "The audit trail"). */
export interface AuditRecord {
  /** E-mail of who made the change; null: the system. */
  actor: string | null;
  /** The test it concerns; null for a change to a user. */
  researchId: string | null;
  /** What was changed: research, profile, t0, report, thermo_config, exclusion, observation, email, url, drawing, user, review, … */
  entity: string;
  entityId?: string | null;
  /** create | update | delete | send | password | archive | unarchive | review | approve | reopen | … */
  action: string;
  /** The values before the change (omit for a creation) and after it (omit for a deletion), as JSON objects. */
  before?: object | null;
  after?: object | null;
}

/**
 * Writes the audit trail. Pass the change's own transaction (`manager`) so that the change and its entry
 * are stored together or not at all; the table itself refuses any later UPDATE or DELETE.
 */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  async record(entry: AuditRecord, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(AuditEntryEntity, {
      actor: entry.actor,
      researchId: entry.researchId,
      entity: entry.entity,
      entityId: entry.entityId ?? null,
      action: entry.action,
      before: entry.before ?? null,
      after: entry.after ?? null,
    });
  }

  /**
   * Runs a change in one transaction; the entries it records with the manager it is given are stored with it,
   * or, when anything fails, neither is.
   */
  transaction<T>(change: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(change);
  }
}
