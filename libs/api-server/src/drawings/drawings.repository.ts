import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ResearchDrawingEntity } from '@furnace/db';

export type NewDrawing = Pick<
  ResearchDrawingEntity,
  'researchId' | 'filename' | 'mime' | 'size' | 'sha256' | 'data' | 'createdBy'
>;

/** All database I/O of a research's drawings; the file's bytes are read only by `file`. */
@Injectable()
export class DrawingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(researchId: string): Promise<ResearchDrawingEntity[]> {
    return this.dataSource
      .getRepository(ResearchDrawingEntity)
      .find({ where: { researchId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The drawing when it is one of this research's. */
  find(researchId: string, id: string): Promise<ResearchDrawingEntity | null> {
    return this.dataSource.getRepository(ResearchDrawingEntity).findOneBy({ id, researchId });
  }

  async file(researchId: string, id: string): Promise<{ data: Buffer; mime: string; filename: string } | null> {
    const row = await this.dataSource
      .getRepository(ResearchDrawingEntity)
      .findOne({ where: { id, researchId }, select: { id: true, data: true, mime: true, filename: true } });
    return row ? { data: row.data, mime: row.mime, filename: row.filename } : null;
  }

  create(drawing: NewDrawing, em: EntityManager): Promise<ResearchDrawingEntity> {
    const repo = em.getRepository(ResearchDrawingEntity);
    return repo.save(repo.create({ ...drawing, id: randomUUID() }));
  }

  /** The drawing of this research that was deleted (without its bytes), or null when there was none. */
  async delete(researchId: string, id: string, em: EntityManager): Promise<ResearchDrawingEntity | null> {
    const repo = em.getRepository(ResearchDrawingEntity);
    const found = await repo.findOne({ where: { id, researchId }, lock: { mode: 'pessimistic_write' } });
    if (!found) return null;
    await repo.delete({ id, researchId });
    return found;
  }
}
