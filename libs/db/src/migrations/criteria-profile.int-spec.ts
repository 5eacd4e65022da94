import type { DataSource } from 'typeorm';
import { createDataSource } from '../data-source';
import { createTestDatabase, type TestDatabase } from '../testing';
import { CriteriaProfile1796300000000 } from './1796300000000-CriteriaProfile';

// Researches reviewed before the test profile existed keep the limits as absolute °C: the migration
// must not silently move their failure times. New ones compare rises above T0.
describe('migration CriteriaProfile', () => {
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

  it('gives existing researches the absolute basis and the defaults, and new ones the rise basis', async () => {
    const migration = new CriteriaProfile1796300000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await runner.query(
        `INSERT INTO research (id, name, start_at, end_at) VALUES ('6b1f8f0e-3c1d-4d8e-9a53-1f2a3b4c5d6e', 'Reviewed in 2025', '2025-05-01T08:00:00Z', '2025-05-01T10:00:00Z')`,
      );
      await migration.up(runner);
      await runner.query(
        `INSERT INTO research (id, name, start_at, end_at) VALUES ('7c2a9e1f-4d2e-4e9f-8b64-2a3b4c5d6e7f', 'New', '2026-05-01T08:00:00Z', '2026-05-01T10:00:00Z')`,
      );
      const rows = await runner.query(
        `SELECT name, standard, insulation, heating_curve, criteria_basis, planned_duration_min, t0_override FROM research ORDER BY start_at`,
      );
      expect(rows).toEqual([
        {
          name: 'Reviewed in 2025',
          standard: 'EN_1363_1',
          insulation: null,
          heating_curve: 'iso834',
          criteria_basis: 'absolute',
          planned_duration_min: null,
          t0_override: null,
        },
        {
          name: 'New',
          standard: 'EN_1363_1',
          insulation: null,
          heating_curve: 'iso834',
          criteria_basis: 'rise',
          planned_duration_min: null,
          t0_override: null,
        },
      ]);
    } finally {
      await runner.release();
    }
  });
});
