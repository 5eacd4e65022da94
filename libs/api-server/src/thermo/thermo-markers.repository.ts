import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ThermoMarker } from '@furnace/contracts';
import { ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';

/** Writes a config's file and markers anew (the editor's save, docs/behaviour.md §4.8). */
@Injectable()
export class ThermoMarkersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Replaces the config file and every marker of config `configId` in one transaction: readers see
   * the old markers or the new ones, never a mix. The UPDATE comes first, so two saves of one config
   * run one after the other. Null when the config does not exist (nothing is written).
   */
  replace(configId: string, file: { filename: string; data: Buffer }, markers: readonly ThermoMarker[]): Promise<ThermoConfigEntity | null> {
    return this.dataSource.transaction(async (em) => {
      const updated = await em.update(ThermoConfigEntity, { id: configId }, { configFilename: file.filename, configData: file.data });
      if (!updated.affected) return null;
      await em.delete(ThermoMarkerEntity, { configId });
      const rows = markers.map((m) => ThermoMarkerEntity.fromMarker(configId, m));
      // Chunked: one INSERT per 500 markers keeps each statement's parameter count well under the limit.
      for (let i = 0; i < rows.length; i += 500) await em.insert(ThermoMarkerEntity, rows.slice(i, i + 500));
      return em.findOneBy(ThermoConfigEntity, { id: configId });
    });
  }
}
