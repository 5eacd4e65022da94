import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../data-source';
import { ThermoConfigEntity, ThermoMarkerEntity } from '../entities';
import { refreshQueuedCategoryRollups } from '../rollup-refresh';
import { REBUILD_ROLLUPS_SQL } from '../rollups';
import { createTestDatabase, type TestDatabase } from '../testing';
import { CategoryRollupExclusions1796400000000 } from './1796400000000-CategoryRollupExclusions';
import { RollupRefreshQueue1796600000000 } from './1796600000000-RollupRefreshQueue';

// Researches with exclusions made before the category rollups honoured them are rebuilt by the
// migration; after it, each change of an exclusion refreshes them (down: as before, and no triggers).
// Since RollupRefreshQueue the change only queues the refresh, which refreshQueuedCategoryRollups makes.
describe('migration CategoryRollupExclusions', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const researchId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createDataSource({ url: db.url, poolSize: 2, logging: ['error'] });
    await dataSource.initialize();
    await dataSource.query(
      `INSERT INTO research (id, name, start_at, end_at) VALUES ($1, 'Ściana', now(), now() + interval '2 hours')`,
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
      [1, 2].map((thermoId) => ({
        configId,
        thermoId,
        name: `T${thermoId}`,
        typeName: 'A',
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
    // Thermocouple 2 reads 500 + t, thermocouple 1 reads 20: the type's max is thermocouple 2's while it counts.
    await dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, thermocouples) SELECT $1, t, now(), ARRAY[20, 500 + t]::real[] FROM generate_series(0, 99) AS t`,
      [researchId],
    );
    for (const sql of REBUILD_ROLLUPS_SQL) await dataSource.query(sql, [researchId]);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** The type's max over 0…99 s and the mean of its per-frame means, from the 10-minute rollup. */
  const category = async () => {
    const rows: { cmax_max: number; cmean: number; n: number }[] = await dataSource.query(
      `SELECT cmax_max, cmean_sum / cmean_n AS cmean, cmax_n AS n FROM reading_rollup_category WHERE research_id = $1 AND width = 600 AND type_name = 'A'`,
      [researchId],
    );
    return rows[0];
  };

  it('rebuilds the category rollups of researches with exclusions, and refreshes them on each change', async () => {
    const migration = new CategoryRollupExclusions1796400000000();
    const queue = new RollupRefreshQueue1796600000000();
    const runner = dataSource.createQueryRunner();
    const refresh = () => refreshQueuedCategoryRollups(dataSource, { owner: 'test' });
    try {
      await queue.down(runner);
      await migration.down(runner);
      // An exclusion recorded while the rollups ignored them: nothing changes yet.
      await runner.query(
        `INSERT INTO thermo_exclusion (research_id, thermo_id, from_time, reason) VALUES ($1, 2, 50, 'came loose')`,
        [researchId],
      );
      expect(await category()).toEqual({ cmax_max: 599, cmean: expect.closeTo((20 + 549.5) / 2, 9), n: 100 });

      await migration.up(runner);
      await queue.up(runner);
      // From 50 s on only thermocouple 1 counts: max 549 (at 49 s), means (20 + 500 + t) / 2 for t < 50, then 20.
      const means = [...Array.from({ length: 50 }, (_, t) => (520 + t) / 2), ...Array.from({ length: 50 }, () => 20)];
      expect(await category()).toEqual({
        cmax_max: 549,
        cmean: expect.closeTo(means.reduce((a, b) => a + b, 0) / 100, 9),
        n: 100,
      });

      // A change is queued with the earliest time it touches, and refreshed off the statement.
      await runner.query(`UPDATE thermo_exclusion SET from_time = 90 WHERE research_id = $1`, [researchId]);
      expect((await category())?.cmax_max).toBe(549);
      expect(await runner.query('SELECT research_id, from_time FROM rollup_refresh')).toEqual([
        { research_id: researchId, from_time: 50 },
      ]);
      expect(await refresh()).toEqual([researchId]);
      expect((await category())?.cmax_max).toBe(589);
      expect(await runner.query('SELECT * FROM rollup_refresh')).toEqual([]);
      await runner.query(`DELETE FROM thermo_exclusion WHERE research_id = $1`, [researchId]);
      await refresh();
      expect((await category())?.cmax_max).toBe(599);
      expect(await refresh()).toEqual([]);

      // Deleting the research deletes its exclusions (cascade) without recomputing anything for it.
      await runner.query(
        `INSERT INTO thermo_exclusion (research_id, thermo_id, from_time, reason) VALUES ($1, 2, 10, 'came loose')`,
        [researchId],
      );
      await runner.query('DELETE FROM research WHERE id = $1', [researchId]);
      const left: { n: string }[] = await runner.query(
        'SELECT (SELECT count(*) FROM reading_rollup_category WHERE research_id = $1) + (SELECT count(*) FROM thermo_exclusion WHERE research_id = $1) AS n',
        [researchId],
      );
      expect(Number(left[0]!.n)).toBe(0);
    } finally {
      await runner.release();
    }
  });
});
