import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { findResearchHeader, queryOn, ResearchEmailEntity, ResearchEntity, ResearchUrlEntity } from '@furnace/db';


/** All database I/O of researches and their stream links. */
@Injectable()
export class ResearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<ResearchEntity[]> {
    return this.dataSource.getRepository(ResearchEntity).find({ order: { startAt: 'DESC', name: 'ASC' } });
  }

  findById(id: string): Promise<ResearchEntity | null> {
    return this.dataSource.getRepository(ResearchEntity).findOneBy({ id });
  }

  /** Creates the research and its first client e-mails in one transaction. */
  create(fields: Omit<ResearchEntity, 'id' | 'createdAt' | 'updatedAt'>, emails: string[]): Promise<ResearchEntity> {
    return this.dataSource.transaction(async (em: EntityManager) => {
      const research = await em.save(ResearchEntity, em.create(ResearchEntity, { ...fields, id: randomUUID() }));
      for (const email of emails) {
        await em.save(ResearchEmailEntity, em.create(ResearchEmailEntity, { id: randomUUID(), researchId: research.id, email, isSent: false, sentAt: null }));
      }
      return research;
    });
  }

  async update(research: ResearchEntity, fields: Partial<Omit<ResearchEntity, 'id' | 'createdAt' | 'updatedAt'>>): Promise<ResearchEntity> {
    if (Object.keys(fields).length === 0) return research;
    await this.dataSource.getRepository(ResearchEntity).update({ id: research.id }, fields);
    return (await this.findById(research.id)) ?? research;
  }

  /** The foreign keys cascade: links, e-mails, configs, markers and readings go with it. */
  async delete(id: string): Promise<void> {
    await this.dataSource.getRepository(ResearchEntity).delete({ id });
  }

  async exists(id: string): Promise<boolean> {
    return (await findResearchHeader(queryOn(this.dataSource), id)) !== null;
  }

  listUrls(researchId: string): Promise<ResearchUrlEntity[]> {
    return this.dataSource.getRepository(ResearchUrlEntity).find({ where: { researchId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findUrl(id: string): Promise<ResearchUrlEntity | null> {
    return this.dataSource.getRepository(ResearchUrlEntity).findOneBy({ id });
  }

  createUrl(researchId: string, url: string): Promise<ResearchUrlEntity> {
    const repo = this.dataSource.getRepository(ResearchUrlEntity);
    return repo.save(repo.create({ id: randomUUID(), researchId, url }));
  }

  async updateUrl(entity: ResearchUrlEntity, url: string): Promise<ResearchUrlEntity> {
    await this.dataSource.getRepository(ResearchUrlEntity).update({ id: entity.id }, { url });
    return Object.assign(entity, { url });
  }

  async deleteUrl(id: string): Promise<void> {
    await this.dataSource.getRepository(ResearchUrlEntity).delete({ id });
  }
}
