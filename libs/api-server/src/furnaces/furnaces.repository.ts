import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { FurnaceDaqCredentialEntity, FurnaceEntity, FurnaceReadingEntity, ResearchEntity } from '@furnace/db';

/** All database I/O of furnaces. */
@Injectable()
export class FurnacesRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<FurnaceEntity[]> {
    return this.dataSource.getRepository(FurnaceEntity).find({ order: { code: 'ASC' } });
  }

  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<FurnaceEntity | null> {
    return em.getRepository(FurnaceEntity).findOneBy({ id });
  }

  findForUpdate(id: string, em: EntityManager): Promise<FurnaceEntity | null> {
    return em.getRepository(FurnaceEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  findByCode(code: string, em: EntityManager = this.dataSource.manager): Promise<FurnaceEntity | null> {
    return em.getRepository(FurnaceEntity).findOneBy({ code });
  }

  async create(
    fields: Omit<FurnaceEntity, 'id' | 'createdAt' | 'updatedAt'>,
    em: EntityManager,
  ): Promise<FurnaceEntity> {
    const repo = em.getRepository(FurnaceEntity);
    return repo.save(repo.create(fields));
  }

  async update(furnace: FurnaceEntity, fields: Partial<FurnaceEntity>, em: EntityManager): Promise<FurnaceEntity> {
    const repo = em.getRepository(FurnaceEntity);
    return repo.save(repo.merge(repo.create(furnace), fields));
  }

  async delete(furnace: FurnaceEntity, em: EntityManager): Promise<void> {
    await em.getRepository(FurnaceEntity).delete({ id: furnace.id });
  }

  /** How many tests (archived ones too: their record names the furnace) are scheduled on it. */
  countResearches(furnaceId: string, em: EntityManager): Promise<number> {
    return em.getRepository(ResearchEntity).countBy({ furnaceId });
  }

  /** How many unassigned readings of its DAQ it holds (docs/behaviour.md, "Furnaces"). */
  countUnassigned(furnaceId: string, em: EntityManager): Promise<number> {
    return em.getRepository(FurnaceReadingEntity).countBy({ furnaceId });
  }

  /** Every DAQ credential, by furnace id. */
  async credentials(em: EntityManager = this.dataSource.manager): Promise<Map<string, FurnaceDaqCredentialEntity>> {
    const all = await em.getRepository(FurnaceDaqCredentialEntity).find();
    return new Map(all.map((c) => [c.furnaceId, c]));
  }

  findCredential(furnaceId: string, em: EntityManager = this.dataSource.manager) {
    return em.getRepository(FurnaceDaqCredentialEntity).findOneBy({ furnaceId });
  }

  /** Issues or replaces the furnace's credential (one per furnace). */
  async saveCredential(credential: FurnaceDaqCredentialEntity, em: EntityManager): Promise<void> {
    await em.getRepository(FurnaceDaqCredentialEntity).upsert(credential, ['furnaceId']);
  }

  /** Withdraws the furnace's credential. */
  async deleteCredential(furnaceId: string, em: EntityManager): Promise<void> {
    await em.getRepository(FurnaceDaqCredentialEntity).delete({ furnaceId });
  }

  /** Renames the credential with its furnace (its username names the code). */
  async renameCredential(furnaceId: string, username: string, em: EntityManager): Promise<void> {
    await em.getRepository(FurnaceDaqCredentialEntity).update({ furnaceId }, { username });
  }
}
