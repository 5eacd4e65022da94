import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ThermoMarker } from '@furnace/contracts';
import { ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';

/** Writes a config's file and markers anew (the editor's save, docs/behaviour.md §4.8). */
@Injectable()
export class ThermoMarkersRepository {
  /**
   * Replaces the config file and every marker of config `configId` in `em`'s transaction: readers see
   * the old markers or the new ones, never a mix. The caller has locked the config's row
   * (ThermoRepository.findForUpdate), so two saves of one config run one after the other.
   * Null when the config does not exist (nothing is written).
   */
  async replace(
    configId: string,
    file: { filename: string; data: Buffer },
    markers: readonly ThermoMarker[],
    em: EntityManager,
  ): Promise<ThermoConfigEntity | null> {
    const updated = await em.update(
      ThermoConfigEntity,
      { id: configId },
      { configFilename: file.filename, configData: file.data },
    );
    if (!updated.affected) return null;
    await em.delete(ThermoMarkerEntity, { configId });
    const rows = markers.map((m) => ThermoMarkerEntity.fromMarker(configId, m));
    // Chunked: one INSERT per 500 markers keeps each statement's parameter count well under the limit.
    for (let i = 0; i < rows.length; i += 500) await em.insert(ThermoMarkerEntity, rows.slice(i, i + 500));
    return em.findOneBy(ThermoConfigEntity, { id: configId });
  }
}
