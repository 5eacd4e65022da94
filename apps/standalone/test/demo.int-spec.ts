import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@furnace/db';
import { countReadings, waitFor, withPg } from '@furnace/testing';
import { ingestFor, useTestEnvironment } from '@furnace/ingest/testing';
import { DEMO_RESEARCH_ID, startDemo } from '../src/demo';

describe('the demo of npm start', () => {
  const env = useTestEnvironment();
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource({ url: env.db.url, poolSize: 2, logging: ['error'] });
    await dataSource.initialize();
  });
  afterAll(() => dataSource?.destroy());

  it('creates a research with a photo and thermocouples at first start, feeds it live, and does not bring it back once deleted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'furnace-demo-'));
    const logs: string[] = [];
    await ingestFor(env, [DEMO_RESEARCH_ID]);
    const demo = await startDemo({ dataSource, brokerUrl: env.broker.url, dataDir, log: (m) => logs.push(m) });
    expect(demo?.researchId).toBe(DEMO_RESEARCH_ID);
    await waitFor('demo frames stored', async () => (await countReadings(env.db.url, DEMO_RESEARCH_ID)) >= 2);
    await demo!.stop();

    const markers = await withPg(
      env.db.url,
      async (c) =>
        (
          await c.query(
            'SELECT m.type_name, count(*)::int AS n FROM thermo_marker m JOIN thermo_config t ON t.id = m.config_id WHERE t.research_id = $1 GROUP BY 1 ORDER BY 1',
            [DEMO_RESEARCH_ID],
          )
        ).rows,
    );
    expect(markers).toEqual([
      { type_name: 'Tmax', n: 4 },
      { type_name: 'Tmax ościeżnicy', n: 4 },
      { type_name: 'Tśr i Tmax', n: 16 },
    ]);
    const frame = await withPg(
      env.db.url,
      async (c) =>
        (
          await c.query('SELECT cardinality(thermocouples) AS n, pk FROM reading WHERE research_id = $1 LIMIT 1', [
            DEMO_RESEARCH_ID,
          ])
        ).rows[0],
    );
    expect(frame.n).toBe(24);
    // The demo lab's two furnaces: the test runs on the horizontal one, the vertical one is idle.
    const furnaces = await withPg(
      env.db.url,
      async (c) =>
        (
          await c.query(
            'SELECT f.code, (SELECT count(*)::int FROM research r WHERE r.furnace_id = f.id) AS tests FROM furnace f ORDER BY f.code',
          )
        ).rows,
    );
    expect(furnaces).toEqual([
      { code: 'demo-h', tests: 1 },
      { code: 'demo-v', tests: 0 },
    ]);

    // A second start continues the same research; once staff delete it, it stays deleted.
    const again = await startDemo({ dataSource, brokerUrl: env.broker.url, dataDir, log: (m) => logs.push(m) });
    expect(again?.researchId).toBe(DEMO_RESEARCH_ID);
    await again!.stop();
    await withPg(env.db.url, (c) => c.query('DELETE FROM research WHERE id = $1', [DEMO_RESEARCH_ID]));
    expect(existsSync(join(dataDir, 'demo-research'))).toBe(true);
    expect(await startDemo({ dataSource, brokerUrl: env.broker.url, dataDir, log: (m) => logs.push(m) })).toBeNull();
    expect(logs.join('\n')).toMatch(/demo research was deleted/);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
