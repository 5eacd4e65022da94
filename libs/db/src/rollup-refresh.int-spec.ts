import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { ThermoConfigEntity, ThermoMarkerEntity } from './entities';
import { refreshQueuedCategoryRollups } from './rollup-refresh';
import { REBUILD_ROLLUPS_SQL } from './rollups';
import { createTestDatabase, type TestDatabase } from './testing';

// An exclusion queues its research's category rollups; the refresh, ten minutes per transaction from the
// ten minutes the change touches, ends with the rollups a whole rebuild makes, and skips a research another
// instance has claimed while the claim holds.
describe('queued refresh of the category rollups', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const researchId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createDataSource({ url: db.url, poolSize: 3, logging: ['error'] });
    await dataSource.initialize();
    await dataSource.query(
      `INSERT INTO research (id, name, start_at, end_at) VALUES ($1, 'Drzwi', now(), now() + interval '4 hours')`,
      [researchId],
    );
    const configId = randomUUID();
    await dataSource.getRepository(ThermoConfigEntity).insert({
      id: configId,
      researchId,
      imageFilename: 'a.png',
      imageMime: 'image/png',
      imageWidth: 1,
      imageHeight: 1,
      imageSha256: '0'.repeat(64),
      imageData: Buffer.alloc(0),
      configFilename: 'a.txt',
      configData: Buffer.alloc(0),
    });
    await dataSource.getRepository(ThermoMarkerEntity).insert(
      [
        [1, 'A'],
        [2, 'A'],
        [3, 'B'],
      ].map(([thermoId, typeName]) => ({
        configId,
        thermoId: thermoId as number,
        name: `T${thermoId}`,
        typeName: typeName as string,
        colorHex: '#E53935',
        itemX: 1,
        itemY: 1,
        itemSize: 1,
        labelX: 1,
        labelY: 1,
        labelWidth: 1,
        labelHeight: 1,
      })),
    );
    // Three hours and a bit, a frame every 10 s from the minute before ignition; thermocouple 2 runs hottest.
    await dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, thermocouples)
       SELECT $1, t, now(), ARRAY[20 + t / 100.0, 30 + t / 10.0, 25]::real[] FROM generate_series(-60, 11000, 10) AS t`,
      [researchId],
    );
    for (const sql of REBUILD_ROLLUPS_SQL) await dataSource.query(sql, [researchId]);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const refresh = () => refreshQueuedCategoryRollups(dataSource, { owner: 'this' });

  const rows = () =>
    dataSource.query(
      `SELECT width, bucket::text, type_name, cmax_min, cmax_max, cmax_n, round(cmax_sum::numeric, 6)::text AS cmax_sum, cmean_n, round(cmean_sum::numeric, 6)::text AS cmean_sum
       FROM reading_rollup_category WHERE research_id = $1 ORDER BY width, bucket, type_name`,
      [researchId],
    ) as Promise<{ width: number; bucket: string; type_name: string; cmax_max: number }[]>;

  it('rebuilds from the ten minutes the exclusion starts in, to what a whole rebuild gives', async () => {
    const before = await rows();
    await dataSource.query(
      `INSERT INTO thermo_exclusion (research_id, thermo_id, from_time, reason) VALUES ($1, 2, 7300, 'came loose')`,
      [researchId],
    );
    expect(await dataSource.query('SELECT research_id, from_time FROM rollup_refresh')).toEqual([
      { research_id: researchId, from_time: 7300 },
    ]);
    // Nothing changed yet: the statement only queued it.
    expect(await rows()).toEqual(before);

    expect(await refresh()).toEqual([researchId]);
    const refreshed = await rows();
    // The 10-minute bucket 7200–7800 s: thermocouple 2 counts up to 7290 s (30 + 729 = 759), then only 1 (20 + 109.9).
    expect(refreshed.find((r) => r.width === 600 && r.bucket === '12' && r.type_name === 'A')?.cmax_max).toBeCloseTo(
      759,
      3,
    );
    // Before the exclusion's ten minutes (from 7200 s) nothing differs; the same as a rebuild of the whole test.
    expect(refreshed.filter((r) => Number(r.bucket) * r.width < 7200)).toEqual(
      before.filter((r) => Number(r.bucket) * r.width < 7200),
    );
    await dataSource.query('SELECT reading_rollup_rebuild($1, true)', [researchId]);
    expect(await rows()).toEqual(refreshed);
    expect(await dataSource.query('SELECT * FROM rollup_refresh')).toEqual([]);
  });

  it('leaves a research to the instance that is refreshing it until its claim runs out', async () => {
    await dataSource.query(`UPDATE thermo_exclusion SET from_time = 3600 WHERE research_id = $1`, [researchId]);
    await dataSource.query(
      `INSERT INTO rollup_refresh_claim (research_id, owner, until) VALUES ($1, 'other', now() + interval '1 minute')`,
      [researchId],
    );
    expect(await refresh()).toEqual([]);
    expect(await dataSource.query('SELECT from_time FROM rollup_refresh')).toEqual([{ from_time: 3600 }]);
    // The other instance died: its claim runs out, and this one takes the research over.
    await dataSource.query(
      `UPDATE rollup_refresh_claim SET until = now() - interval '1 second' WHERE research_id = $1`,
      [researchId],
    );
    expect(await refresh()).toEqual([researchId]);
    expect(await dataSource.query('SELECT * FROM rollup_refresh_claim')).toEqual([]);
    const refreshed = await rows();
    await dataSource.query('SELECT reading_rollup_rebuild($1, true)', [researchId]);
    expect(await rows()).toEqual(refreshed);
  });

  it('waits before each chunk for the work it yields to, and rebuilds nothing while that runs', async () => {
    await dataSource.query(`UPDATE thermo_exclusion SET from_time = 7300 WHERE research_id = $1`, [researchId]);
    const before = await rows();
    let release!: () => void;
    let waits = 0;
    let blocked = true;
    const yieldTo = () => {
      waits++;
      return blocked ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    };
    const running = refreshQueuedCategoryRollups(dataSource, { owner: 'this', yieldTo });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Held before its first ten minutes (from 3600 s: the exclusion's old start): nothing rebuilt, still queued.
    expect(waits).toBe(1);
    expect(await rows()).toEqual(before);
    expect(await dataSource.query('SELECT from_time FROM rollup_refresh')).toEqual([{ from_time: 3600 }]);
    blocked = false;
    release();
    expect(await running).toEqual([researchId]);
    // From 3600 s to the last frame at 11 000 s, a minute to an hour at a time: asked before each chunk.
    expect(waits).toBeGreaterThanOrEqual(3);
    expect(waits).toBeLessThanOrEqual(124);
    expect(await rows()).not.toEqual(before);
    const refreshed = await rows();
    await dataSource.query('SELECT reading_rollup_rebuild($1, true)', [researchId]);
    expect(await rows()).toEqual(refreshed);
  });
});
