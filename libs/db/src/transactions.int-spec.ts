import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { createTestDatabase, type TestDatabase } from './testing';

/*
 * A transaction's code uses the transaction's connection only (data-source.ts, oneConnectionPerTransaction).
 * On the embedded database a query on another connection from inside a transaction waited for the
 * transaction, which waited for it: every connection stopped for good (a second acknowledgement of an alarm
 * did it). Run on whichever database the tests run.
 */

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource({ url: db.url, poolSize: 3, logging: ['error'] });
  await ds.initialize();
}, 120_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('a transaction on the data source', () => {
  it("refuses a query on another connection from the transaction's code, rolls back, and the database goes on", async () => {
    await ds.query('CREATE TABLE IF NOT EXISTS tx_probe (n int)');
    const attempt = ds.transaction(async (em) => {
      await em.query('INSERT INTO tx_probe VALUES (1)');
      // What AlarmsService.acknowledge did: a lookup through the repository's data source.
      await Promise.resolve().then(() => ds.query('SELECT count(*) FROM tx_probe'));
    });
    await expect(attempt).rejects.toThrow(
      "A query on another connection inside a transaction (use the transaction's EntityManager)",
    );
    // Nothing of it was written, and every connection answers.
    const answers = await Promise.all([1, 2, 3].map(() => ds.query('SELECT count(*)::int AS n FROM tx_probe')));
    expect(answers).toEqual([[{ n: 0 }], [{ n: 0 }], [{ n: 0 }]]);
  });

  it("serves the transaction's own manager, a nested transaction on it, and work its code left for later", async () => {
    let later: Promise<unknown> | undefined;
    const isolation = await ds.transaction('REPEATABLE READ', async (em) => {
      await em.query('INSERT INTO tx_probe VALUES (2)');
      await em.transaction((inner) => inner.query('INSERT INTO tx_probe VALUES (3)'));
      // Started inside, run once the transaction has ended (as a background refresh it kicks off).
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        ds.query('SELECT count(*)::int AS n FROM tx_probe'),
      );
      return (await em.query('SHOW transaction_isolation')) as { transaction_isolation: string }[];
    });
    expect(isolation).toEqual([{ transaction_isolation: 'repeatable read' }]);
    expect(await later).toEqual([{ n: 2 }]);
  });
});
