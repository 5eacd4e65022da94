import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ResearchEmailEntity } from '@furnace/db';
import { isUniqueViolation } from '../users/users.repository';

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

  async create(researchId: string, email: string): Promise<ResearchEmailEntity> {
    try {
      return await this.repo.save(this.repo.create({ id: randomUUID(), researchId, email: email.toLowerCase(), isSent: false, sentAt: null }));
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateClientEmailError();
      throw e;
    }
  }

  /**
   * A new address gets a new access code: whoever received the old invitation loses access.
   * Returns the record under its new id.
   */
  async changeAddress(record: ResearchEmailEntity, email: string): Promise<ResearchEmailEntity> {
    const id = randomUUID();
    try {
      await this.repo.update({ id: record.id }, { id, email: email.toLowerCase(), isSent: false, sentAt: null });
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateClientEmailError();
      throw e;
    }
    return (await this.findById(id)) as ResearchEmailEntity;
  }

  async markSent(record: ResearchEmailEntity, at: Date): Promise<ResearchEmailEntity> {
    await this.repo.update({ id: record.id }, { isSent: true, sentAt: at });
    return Object.assign(record, { isSent: true, sentAt: at });
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }
}
