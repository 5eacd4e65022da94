import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { insertMarkers, insertResearch } from '@furnace/testing';
import { insertRaw, simulatedFrames } from './readings';
import { type BenchServices, type FurnaceSystem, startFurnace } from './services';

/** A finished test stored in the benchmark's database, the system that serves it, and the connections used to store it. */
export interface FinishedTest {
  researchId: string;
  client: Client;
  dataSource: DataSource;
  system: FurnaceSystem;
  /** Seconds the frames, markers and rollups took to store. */
  loadSeconds: number;
  close(): Promise<void>;
}

/**
 * A finished test of `seconds` at 1 Hz after a minute before ignition, `channels` thermocouples on one
 * config (the first two thirds "Tśr i Tmax", then "Tmax", the last 20 "Tmax ościeżnicy"), with its
 * rollups, and Furnace Live started on the services.
 */
export async function storeFinishedTest(
  services: BenchServices,
  options: { seconds: number; channels: number },
): Promise<FinishedTest> {
  const startAt = new Date(Date.now() - (options.seconds + 60) * 1000);
  const researchId = await insertResearch(services.db.url, { startAt });
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  const dataSource = createDataSource({ url: services.db.url, poolSize: 1 });
  await dataSource.initialize();
  const system = await startFurnace(services);
  const close = async () => {
    await system.stop();
    await dataSource.destroy();
    await client.end();
  };
  try {
    const start = performance.now();
    await insertRaw(client, researchId, startAt, simulatedFrames(options.seconds + 60, options.channels, 1, -60));
    const markers: Record<number, string> = {};
    const mean = Math.round((options.channels * 2) / 3);
    for (let id = 1; id <= options.channels; id++)
      markers[id] = id <= mean ? 'Tśr i Tmax' : id <= options.channels - 20 ? 'Tmax' : 'Tmax ościeżnicy';
    await insertMarkers(dataSource, researchId, markers);
    for (const sql of REBUILD_ROLLUPS_SQL) await client.query(sql, [researchId]);
    await client.query('ANALYZE reading');
    return { researchId, client, dataSource, system, loadSeconds: (performance.now() - start) / 1000, close };
  } catch (error) {
    await close();
    throw error;
  }
}
