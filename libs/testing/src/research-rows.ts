import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ResearchEmailEntity, ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';
import { uniqueId } from './ids';

/*
 * A research's client e-mails and thermocouple markers, inserted straight through a DataSource (for tests and
 * benchmarks of what comes after the research's REST API: the live stream, the history).
 */

/** A client e-mail record of the research; its id is the client's access code. */
export async function insertClient(dataSource: DataSource, researchId: string): Promise<string> {
  const id = randomUUID();
  await dataSource
    .getRepository(ResearchEmailEntity)
    .insert({ id, researchId, email: `${uniqueId('client')}@example.com` });
  return id;
}

/** A thermocouple config with markers (thermo_id → type_name), without real image bytes (the history reads only the markers). */
export async function insertMarkers(
  dataSource: DataSource,
  researchId: string,
  markers: Record<number, string>,
): Promise<void> {
  const configId = randomUUID();
  await dataSource.getRepository(ThermoConfigEntity).insert({
    id: configId,
    researchId,
    imageFilename: 'specimen.png',
    imageMime: 'image/png',
    imageWidth: 640,
    imageHeight: 480,
    imageSha256: '0'.repeat(64),
    imageData: Buffer.alloc(0),
    configFilename: 'config.txt',
    configData: Buffer.alloc(0),
  });
  await dataSource.getRepository(ThermoMarkerEntity).insert(
    Object.entries(markers).map(([thermoId, typeName]) => ({
      configId,
      thermoId: Number(thermoId),
      name: `T${thermoId}`,
      typeName,
      colorHex: '#E53935',
      itemX: 10,
      itemY: 10,
      itemSize: 10,
      labelX: 20,
      labelY: 20,
      labelWidth: 40,
      labelHeight: 20,
    })),
  );
}
