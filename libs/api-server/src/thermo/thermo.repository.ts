import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ThermoMarker } from '@furnace/contracts';
import { ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';

export interface NewThermoConfig {
  researchId: string;
  imageFilename: string;
  imageMime: string;
  imageWidth: number;
  imageHeight: number;
  imageSha256: string;
  imageData: Buffer;
  configFilename: string;
  configData: Buffer;
}

/** All database I/O of thermocouple configs (photo + config file) and their markers. */
@Injectable()
export class ThermoRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(researchId: string): Promise<ThermoConfigEntity[]> {
    return this.dataSource.getRepository(ThermoConfigEntity).find({ where: { researchId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string): Promise<ThermoConfigEntity | null> {
    return this.dataSource.getRepository(ThermoConfigEntity).findOneBy({ id });
  }

  async image(id: string): Promise<{ data: Buffer; mime: string; sha256: string } | null> {
    const row = await this.dataSource
      .getRepository(ThermoConfigEntity)
      .findOne({ where: { id }, select: { id: true, imageData: true, imageMime: true, imageSha256: true } });
    return row ? { data: row.imageData, mime: row.imageMime, sha256: row.imageSha256 } : null;
  }

  async configFile(id: string): Promise<{ data: Buffer; filename: string } | null> {
    const row = await this.dataSource
      .getRepository(ThermoConfigEntity)
      .findOne({ where: { id }, select: { id: true, configData: true, configFilename: true } });
    return row ? { data: row.configData, filename: row.configFilename } : null;
  }

  /** The config and all its markers in one transaction: either everything is stored or nothing. */
  create(config: NewThermoConfig, markers: ThermoMarker[]): Promise<ThermoConfigEntity> {
    return this.dataSource.transaction(async (em) => {
      const saved = await em.save(ThermoConfigEntity, em.create(ThermoConfigEntity, { ...config, id: randomUUID() }));
      const rows = markers.map((m) => ThermoMarkerEntity.fromMarker(saved.id, m));
      // Chunked: one INSERT per 500 markers keeps each statement's parameter count well under the limit.
      for (let i = 0; i < rows.length; i += 500) await em.insert(ThermoMarkerEntity, rows.slice(i, i + 500));
      return saved;
    });
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.getRepository(ThermoConfigEntity).delete({ id });
  }

  markersOfConfig(configId: string): Promise<ThermoMarkerEntity[]> {
    return this.dataSource.getRepository(ThermoMarkerEntity).find({ where: { configId }, order: { thermoId: 'ASC' } });
  }

  markersOfResearch(researchId: string): Promise<ThermoMarkerEntity[]> {
    return this.dataSource
      .getRepository(ThermoMarkerEntity)
      .createQueryBuilder('m')
      .innerJoin(ThermoConfigEntity, 'c', 'c.id = m.config_id')
      .where('c.research_id = :researchId', { researchId })
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('m.thermo_id', 'ASC')
      .getMany();
  }
}
