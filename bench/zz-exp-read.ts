import { Client } from 'pg';
import { spawnEmbeddedDatabase } from '@furnace/db/testing';
const N = Number(process.env.N ?? 14400);
async function run(url: string, label: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  await c.query('DROP TABLE IF EXISTS rx');
  await c.query('CREATE TABLE rx (rid int, "time" float8, thermocouples real[], PRIMARY KEY (rid, "time"))');
  for (let s = 0; s < N; s += 1000)
    await c.query(`INSERT INTO rx SELECT 1, t, (SELECT array_agg((20 + t/10.0 + i*0.37 + random())::real) FROM generate_series(1,300) i) FROM generate_series($1::int, $2::int) t`, [s, Math.min(N - 1, s + 999)]);
  const cols: Record<string, string> = {
    text: 'thermocouples::text AS t',
    send: 'array_send(thermocouples) AS t',
  };
  for (let rep = 0; rep < 2; rep++)
    for (const [name, col] of Object.entries(cols)) {
      const t0 = performance.now();
      let after = -1, n = 0, bytes = 0;
      for (;;) {
        const r = await c.query(`SELECT "time", ${col} FROM rx WHERE rid = 1 AND "time" > $1 ORDER BY "time" LIMIT 1000`, [after]);
        if (!r.rows.length) break;
        for (const row of r.rows) bytes += (row.t as string | Buffer).length;
        n += r.rows.length; after = r.rows[r.rows.length - 1].time;
      }
      console.log(label, name, n, 'rows', Math.round(performance.now() - t0), 'ms', Math.round(bytes / 1e6), 'MB');
    }
  await c.query('DROP TABLE rx');
  await c.end();
}
(async () => {
  if (process.env.PG) await run(process.env.PG, 'postgres');
  const e = await spawnEmbeddedDatabase();
  await run(e.url, 'pglite');
  await e.stop();
})();
