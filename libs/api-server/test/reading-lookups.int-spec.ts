import { createDataSource, ResearchEntity } from '@furnace/db';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import type { DataSource } from 'typeorm';
import { UNWATCHED_SQL } from '../src/alarms/alarms.queries';

// "Does this test have a frame?" is asked every few seconds (the running tests no instance watches) and with every
// research read (`ignited`). Asked as a semi-join, the planner hashed the research rows and scanned the whole
// readings table: 86 460 frames of an archived 24-hour test read every 5 s, which on the embedded database held the
// live frames of every other test. The first frame by the readings' key is one index entry whatever is stored
// (docs/architecture.md, "Looking up a test's frames").
describe('looking up whether a test has frames', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const old = 'a1111111-1111-4111-8111-111111111111';
  const running = 'b2222222-2222-4222-8222-222222222222';
  const empty = 'c3333333-3333-4333-8333-333333333333';
  const preheat = 'd4444444-4444-4444-8444-444444444444';

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createDataSource({ url: db.url, poolSize: 2, logging: ['error'] });
    await dataSource.initialize();
    const hour = 3600_000;
    const insertResearch = (id: string, name: string, start: number, end: number) =>
      dataSource.query(`INSERT INTO research (id, name, start_at, end_at) VALUES ($1, $2, $3, $4)`, [
        id,
        name,
        new Date(Date.now() + start * hour),
        new Date(Date.now() + end * hour),
      ]);
    await insertResearch(old, 'Ended yesterday', -30, -24);
    await insertResearch(running, 'Running', -1, 2);
    await insertResearch(empty, 'Running, no frame yet', -1, 2);
    await insertResearch(preheat, 'Running, before ignition', -1, 2);
    const frames = (id: string, from: number, to: number) =>
      dataSource.query(
        `INSERT INTO reading (research_id, "time", ts, thermocouples)
         SELECT $1, g, now(), array_fill(20.5::real, ARRAY[300]) FROM generate_series($2::int, $3::int) g`,
        [id, from, to],
      );
    // The long test's frames first, the running tests' after them, at the end of the table; the table's statistics
    // taken when it held one test's frames (a lab's first test), so that to the planner every test has 20 000.
    await frames(old, -60, 20_000);
    await dataSource.query('ANALYZE');
    await frames(running, -60, 10);
    await frames(preheat, -60, -1);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** Every node of `sql`'s plan that reads the readings table's rows one after another. */
  async function readingScans(sql: string, params: unknown[] = []): Promise<string[]> {
    const [row] = (await dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)) as {
      'QUERY PLAN': { Plan: Record<string, unknown> }[];
    }[];
    const found: string[] = [];
    const visit = (node: Record<string, unknown>) => {
      if (node['Relation Name'] === 'reading' && !String(node['Node Type']).startsWith('Index'))
        found.push(String(node['Node Type']));
      for (const child of (node['Plans'] as Record<string, unknown>[] | undefined) ?? []) visit(child);
    };
    visit(row!['QUERY PLAN'][0]!.Plan);
    return found;
  }

  it('finds the running tests no instance watches from the readings key, not by reading the table', async () => {
    const rows = (await dataSource.query(UNWATCHED_SQL)) as { id: string }[];
    expect(rows.map((r) => r.id).sort()).toEqual([running, preheat].sort());
    expect(await readingScans(UNWATCHED_SQL)).toEqual([]);
  });

  it('reads whether each test is ignited (a frame from time 0 on) from the readings key', async () => {
    const query = dataSource.getRepository(ResearchEntity).createQueryBuilder('research');
    const [sql, params] = query.getQueryAndParameters();
    expect(sql).toContain('FROM reading g');
    expect(await readingScans(sql, params)).toEqual([]);
    const ignited = Object.fromEntries((await query.getMany()).map((r) => [r.id, r.ignited]));
    expect(ignited).toEqual({ [old]: true, [running]: true, [empty]: false, [preheat]: false });
  });
});
