import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ThermoMarker } from '@furnace/contracts';
import { ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';
import type { ThermoFileFacts } from '../audit/audit-values';

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
    return this.dataSource
      .getRepository(ThermoConfigEntity)
      .find({ where: { researchId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string): Promise<ThermoConfigEntity | null> {
    return this.dataSource.getRepository(ThermoConfigEntity).findOneBy({ id });
  }

  /** The config, its row locked until `em`'s transaction ends: a change's "before" is what it replaced. */
  findForUpdate(id: string, em: EntityManager): Promise<ThermoConfigEntity | null> {
    return em.findOne(ThermoConfigEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
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

  /** The config and all its markers in `em`'s transaction: either everything is stored or nothing. */
  async create(config: NewThermoConfig, markers: ThermoMarker[], em: EntityManager): Promise<ThermoConfigEntity> {
    const saved = await em.save(ThermoConfigEntity, em.create(ThermoConfigEntity, { ...config, id: randomUUID() }));
    const rows = markers.map((m) => ThermoMarkerEntity.fromMarker(saved.id, m));
    // Chunked: one INSERT per 500 markers keeps each statement's parameter count well under the limit.
    for (let i = 0; i < rows.length; i += 500) await em.insert(ThermoMarkerEntity, rows.slice(i, i + 500));
    return saved;
  }

  async delete(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ThermoConfigEntity).delete({ id });
  }

  /** The sizes of a config's photo and file and the file's sha256, as stored (the bytes stay in the database). */
  async fileFacts(id: string, em: EntityManager = this.dataSource.manager): Promise<ThermoFileFacts | null> {
    const rows: { image_size: number; config_size: number; config_sha256: string }[] = await em.query(
      `SELECT octet_length(image_data) AS image_size, octet_length(config_data) AS config_size, encode(sha256(config_data), 'hex') AS config_sha256
       FROM thermo_config WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    return row
      ? { imageSize: Number(row.image_size), configSize: Number(row.config_size), configSha256: row.config_sha256 }
      : null;
  }

  markersOfConfig(configId: string, em: EntityManager = this.dataSource.manager): Promise<ThermoMarkerEntity[]> {
    return em.getRepository(ThermoMarkerEntity).find({ where: { configId }, order: { thermoId: 'ASC' } });
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
