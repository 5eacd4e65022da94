import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { migrations } from './migrations';
import { createTestDatabase, type TestDatabase } from './testing';

// Migrations are the only way the schema changes: on a database built by the migrations alone, the
// entities must find nothing to change. When this fails, write the missing migration:
// `npm run db:migration:generate -- libs/db/src/migrations/<Name>` and list it in migrations/index.ts.
describe('entities and migrations', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createDataSource({ url: db.url, poolSize: 2, logging: ['error'] });
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('has every migration applied to the test database', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
    const applied = (await dataSource.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[];
    expect(applied.map((m) => m.name)).toEqual(migrations.map((M) => new M().name ?? M.name));
  });

  it('leaves nothing for the entities to change in the migrated schema', async () => {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    const drift = upQueries.map((q) => `  ${q.query};`);
    if (drift.length) {
      throw new Error(
        `The entities differ from the schema the migrations build. A migration would need:\n${drift.join('\n')}`,
      );
    }
  });
});
