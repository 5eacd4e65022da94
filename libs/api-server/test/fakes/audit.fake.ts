import type { EntityManager } from 'typeorm';
import type { AuditRecord, AuditService } from '../../src/audit/audit.service';

/** AuditService in memory: the entries recorded, a change's "transaction" run as it is (the fakes it uses take no manager). */
export class FakeAudit {
  readonly entries: AuditRecord[] = [];

  async record(entry: AuditRecord): Promise<void> {
    this.entries.push(entry);
  }

  transaction<T>(change: (manager: EntityManager) => Promise<T>): Promise<T> {
    return change(undefined as unknown as EntityManager);
  }

  as(): AuditService {
    return this as unknown as AuditService;
  }
}
