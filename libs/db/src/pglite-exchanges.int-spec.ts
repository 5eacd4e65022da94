import { Pool } from 'pg';
import { spawnEmbeddedDatabase } from './testing';

// The embedded PGlite serves many connections from one session (pglite-exchanges.js): queries with
// parameters from many connections at once, while long statements make them wait, each get their own
// answer. Without serializeExchanges they bind to each other's statements (electric-sql/pglite#1046).
// Always the embedded database, whatever TEST_DATABASE_URL says: this is about its server.
describe('the embedded database with many connections', () => {
  let server: Awaited<ReturnType<typeof spawnEmbeddedDatabase>>;
  let pool: Pool;

  beforeAll(async () => {
    server = await spawnEmbeddedDatabase();
    pool = new Pool({ connectionString: server.url, max: 8 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  it('answers each connection its own query while others wait behind long statements and transactions', async () => {
    const queries: Promise<void>[] = [];
    const errors: string[] = [];
    for (let i = 0; i < 400; i++) {
      // Statements of 1, 2 and 3 parameters whose answer names the query that asked.
      const n = 1 + (i % 3);
      const args = Array.from({ length: n }, (_, k) => i * 10 + k);
      const sql = `SELECT ${args.map((_, k) => `$${k + 1}::int`).join(' + ')} AS sum, ${n} AS n`;
      queries.push(
        pool.query(sql, args).then(
          (res) => {
            const expected = { sum: args.reduce((a, b) => a + b, 0), n };
            if (JSON.stringify(res.rows) !== JSON.stringify([expected]))
              errors.push(`query ${i}: ${JSON.stringify(res.rows)}`);
          },
          (error: Error) => {
            errors.push(`query ${i}: ${error.message}`);
          },
        ),
      );
      if (i % 50 === 0) queries.push(pool.query('SELECT pg_sleep(0.02)').then(() => undefined));
      if (i % 80 === 0) {
        queries.push(
          (async () => {
            const client = await pool.connect();
            try {
              await client.query('BEGIN');
              await client.query('SELECT pg_sleep(0.01), $1::int AS x', [i]);
              await client.query('COMMIT');
            } finally {
              client.release();
            }
          })(),
        );
      }
    }
    await Promise.all(queries);
    expect(errors).toEqual([]);
  });

  it('goes on serving after a connection went away in the middle of a transaction', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query('SELECT $1::int AS x', [1]);
    client.release(true);
    const res = await pool.query('SELECT $1::int + $2::int AS sum', [2, 3]);
    expect(res.rows).toEqual([{ sum: 5 }]);
  });

  it('says which connection holds the others when its transaction stays open, and its last statement, and serves them once it ends', async () => {
    let stderr = '';
    const own = await spawnEmbeddedDatabase({ stallMs: 300, stderr: (text) => (stderr += text) });
    const ownPool = new Pool({ connectionString: own.url, max: 4 });
    try {
      const holder = await ownPool.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT $1::text AS held', ['by the holder']);
      const waiting = ownPool.query('SELECT $1::int AS x', [7]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(stderr).toMatch(
        /pglite-exchanges: connections #\d+ have waited \d+ s for connection #\d+ \(a transaction open\): its next message has not come; its last statement: SELECT \$1::text AS held\n/,
      );
      // Said once per stall.
      expect(stderr.match(/have waited/g)).toHaveLength(1);
      await holder.query('COMMIT');
      holder.release();
      expect((await waiting).rows).toEqual([{ x: 7 }]);
    } finally {
      await ownPool.end();
      await own.stop();
    }
  });
});
