import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ResearchEmailEntity } from '@furnace/db';
import type { Language } from '@furnace/text';
import { isUniqueViolation } from '../core/errors';

export class DuplicateClientEmailError extends Error {}

/** All database I/O of clients' e-mail records. */
@Injectable()
export class EmailsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(ResearchEmailEntity);
  }

  list(researchId: string): Promise<ResearchEmailEntity[]> {
    return this.repo.find({ where: { researchId }, order: { createdAt: 'ASC', email: 'ASC' } });
  }

  listUnsent(researchId: string): Promise<ResearchEmailEntity[]> {
    return this.repo.find({ where: { researchId, isSent: false }, order: { createdAt: 'ASC' } });
  }

  findById(id: string): Promise<ResearchEmailEntity | null> {
    return this.repo.findOneBy({ id });
  }

  async create(researchId: string, email: string, lang: Language, em: EntityManager): Promise<ResearchEmailEntity> {
    const repo = em.getRepository(ResearchEmailEntity);
    try {
      return await repo.save(
        repo.create({ id: randomUUID(), researchId, email: email.toLowerCase(), lang, isSent: false, sentAt: null }),
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateClientEmailError();
      throw e;
    }
  }

  /**
   * A new address gets a new access code: whoever received the old invitation loses access.
   * Returns the record under its new id.
   */
  async changeAddress(record: ResearchEmailEntity, email: string, em: EntityManager): Promise<ResearchEmailEntity> {
    const id = randomUUID();
    const repo = em.getRepository(ResearchEmailEntity);
    try {
      await repo.update({ id: record.id }, { id, email: email.toLowerCase(), isSent: false, sentAt: null });
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateClientEmailError();
      throw e;
    }
    return (await repo.findOneBy({ id })) as ResearchEmailEntity;
  }

  /** The record marked sent (a new object: `record` stays as it was). */
  async markSent(record: ResearchEmailEntity, at: Date, em: EntityManager): Promise<ResearchEmailEntity> {
    await em.getRepository(ResearchEmailEntity).update({ id: record.id }, { isSent: true, sentAt: at });
    return Object.assign(new ResearchEmailEntity(), record, { isSent: true, sentAt: at });
  }

  async delete(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ResearchEmailEntity).delete({ id });
  }
}
