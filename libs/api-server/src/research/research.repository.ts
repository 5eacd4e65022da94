import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, IsNull, Raw } from 'typeorm';
import {
  findResearchHeader,
  queryOn,
  ResearchEmailEntity,
  ResearchEntity,
  ResearchUrlEntity,
  UserEntity,
} from '@furnace/db';
import { DEFAULT_LANGUAGE } from '@furnace/text';

/** Not a research being imported from an archive: hidden until its import is done (docs/behaviour.md, "The archive"). */
const NOT_IMPORTING = Raw((id) => `NOT EXISTS (SELECT 1 FROM research_import i WHERE i.research_id = ${id})`);

/** All database I/O of researches and their stream links. */
@Injectable()
export class ResearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Newest start first; archived ones only when asked for. */
  list(includeArchived = false): Promise<ResearchEntity[]> {
    return this.dataSource.getRepository(ResearchEntity).find({
      where: includeArchived ? { id: NOT_IMPORTING } : { archivedAt: IsNull() },
      order: { startAt: 'DESC', name: 'ASC' },
    });
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<ResearchEntity | null> {
    return em.getRepository(ResearchEntity).findOneBy({
      id: Raw(
        (column) => `${column} = :id AND NOT EXISTS (SELECT 1 FROM research_import i WHERE i.research_id = ${column})`,
        { id },
      ),
    });
  }

  /** A test on the furnace, not archived, whose [start, end) window meets [startAt, endAt); `exceptId` left out. */
  overlapping(furnaceId: string, startAt: Date, endAt: Date, exceptId: string | null): Promise<ResearchEntity | null> {
    return this.dataSource
      .getRepository(ResearchEntity)
      .createQueryBuilder('r')
      .where('r.furnace_id = :furnaceId AND r.archived_at IS NULL', { furnaceId })
      .andWhere('tstzrange(r.start_at, r.end_at) && tstzrange(:startAt, :endAt)', { startAt, endAt })
      .andWhere(exceptId ? 'r.id <> :exceptId' : 'TRUE', { exceptId })
      .orderBy('r.start_at')
      .getOne();
  }

  /** The research, its row locked until `em`'s transaction ends: a change's "before" is what it replaced. */
  findForUpdate(id: string, em: EntityManager): Promise<ResearchEntity | null> {
    return em.getRepository(ResearchEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Creates the research and its first client e-mails in `em`'s transaction. */
  async create(
    fields: Omit<ResearchEntity, 'id' | 'createdAt' | 'updatedAt'>,
    emails: string[],
    em: EntityManager,
  ): Promise<ResearchEntity> {
    const research = await em.save(ResearchEntity, em.create(ResearchEntity, { ...fields, id: randomUUID() }));
    for (const email of emails) {
      await em.save(
        ResearchEmailEntity,
        em.create(ResearchEmailEntity, {
          id: randomUUID(),
          researchId: research.id,
          email,
          lang: DEFAULT_LANGUAGE,
          isSent: false,
          sentAt: null,
        }),
      );
    }
    return research;
  }

  async update(
    research: ResearchEntity,
    fields: Partial<Omit<ResearchEntity, 'id' | 'createdAt' | 'updatedAt'>>,
    em: EntityManager = this.dataSource.manager,
  ): Promise<ResearchEntity> {
    if (Object.keys(fields).length === 0) return research;
    await em.getRepository(ResearchEntity).update({ id: research.id }, fields);
    return (await this.findById(research.id, em)) ?? research;
  }

  /** The foreign keys cascade: links, e-mails, configs, markers and readings go with it. */
  async delete(id: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.getRepository(ResearchEntity).delete({ id });
  }

  /** An account that exists and is active (a member of staff a research may name as responsible). */
  staffExists(id: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return em.getRepository(UserEntity).existsBy({ id, isActive: true });
  }

  async exists(id: string): Promise<boolean> {
    return (await findResearchHeader(queryOn(this.dataSource), id)) !== null;
  }

  listUrls(researchId: string): Promise<ResearchUrlEntity[]> {
    return this.dataSource
      .getRepository(ResearchUrlEntity)
      .find({ where: { researchId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findUrl(id: string, em: EntityManager = this.dataSource.manager): Promise<ResearchUrlEntity | null> {
    return em.getRepository(ResearchUrlEntity).findOneBy({ id });
  }

  createUrl(researchId: string, url: string, em: EntityManager): Promise<ResearchUrlEntity> {
    const repo = em.getRepository(ResearchUrlEntity);
    return repo.save(repo.create({ id: randomUUID(), researchId, url }));
  }

  async updateUrl(entity: ResearchUrlEntity, url: string, em: EntityManager): Promise<ResearchUrlEntity> {
    await em.getRepository(ResearchUrlEntity).update({ id: entity.id }, { url });
    return Object.assign(entity, { url });
  }

  async deleteUrl(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ResearchUrlEntity).delete({ id });
  }
}
