import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type DaqPayload, encodeBusMessage, researchChannel } from '@furnace/contracts';
import { ResearchEmailEntity, ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';
import { uniqueId } from '@furnace/testing';
import { TokenService } from '../src/auth/token.service';
import { metricsRegistry } from '../src/metrics/registry';
import type { TestApi } from './harness';

/*
 * What the live-stream and history tests share. Researches, client e-mails and thermocouple
 * markers are inserted straight through the DataSource: the research REST API is another module's.
 */

/** A client e-mail record of the research; its id is the client's access code. */
export async function insertClient(dataSource: DataSource, researchId: string): Promise<string> {
  const id = randomUUID();
  await dataSource.getRepository(ResearchEmailEntity).insert({ id, researchId, email: `${uniqueId('client')}@example.com` });
  return id;
}

/** A thermocouple config with markers (thermo_id → type_name), without real image bytes (the history reads only the markers). */
export async function insertMarkers(dataSource: DataSource, researchId: string, markers: Record<number, string>): Promise<void> {
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

/** A client's viewer token for one research, signed as the API signs it. */
export function viewerTokenFor(api: TestApi, emailId: string, researchId: string): string {
  return api.app.get(TokenService).viewerToken(emailId, researchId);
}

export function publishFrame(api: TestApi, researchId: string, payload: DaqPayload): Promise<void> {
  return api.bus.publish(researchChannel(researchId), encodeBusMessage({ type: 'frame', research_id: researchId, payload }));
}

/** The value of a metric of this process (summed over series matching `labels`). */
export async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await metricsRegistry.getSingleMetric(name)?.get())?.values ?? [];
  return values.filter((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value)).reduce((sum, v) => sum + v.value, 0);
}
