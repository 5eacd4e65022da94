import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from './testing';
import { openDatabase } from './data-source';
import { migrations } from './migrations';

// Needs a real server: the embedded PGlite serves every connection from one backend session, in
// which advisory locks are re-entrant, so they cannot serialise anything there (and the embedded
// system is one process, where the question does not arise).
const onServer = !!process.env.TEST_DATABASE_URL;

(onServer ? describe : describe.skip)('openDatabase on a PostgreSQL server', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    // Start from an empty schema, as a first deployment does.
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await c.end();
  });
  afterAll(() => db?.drop());

  it('migrates once when several instances start together on an empty database', async () => {
    const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ url: db.url, poolSize: 2 })));
    const rows = await instances[0].query('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((r: { name: string }) => r.name)).toEqual(migrations.map((m) => m.name));
    await Promise.all(instances.map((ds) => ds.destroy()));
  });
});
