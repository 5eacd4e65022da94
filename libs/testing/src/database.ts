import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

export async function withPg<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A research row, inserted straight into the database (for tests of what comes after the REST API). */
export async function insertResearch(
  databaseUrl: string,
  fields: Partial<{ id: string; name: string; startAt: Date; endAt: Date }> = {},
): Promise<string> {
  const id = fields.id ?? randomUUID();
  const start = fields.startAt ?? new Date(Date.now() - 60_000);
  const end = fields.endAt ?? new Date(Date.now() + 3 * 3600_000);
  await withPg(databaseUrl, (c) =>
    c.query(
      'INSERT INTO research (id, name, start_at, end_at, is_radiance, is_furnance, is_pressure) VALUES ($1, $2, $3, $4, true, true, true)',
      [id, fields.name ?? `Test research ${id.slice(0, 8)}`, start, end],
    ),
  );
  return id;
}

export async function countReadings(databaseUrl: string, researchId: string): Promise<number> {
  return withPg(databaseUrl, async (c) => {
    const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM reading WHERE research_id = $1', [researchId]);
    return Number(r.rows[0]!.n);
  });
}

/** Times stored for a research, ascending. */
export async function storedTimes(databaseUrl: string, researchId: string): Promise<number[]> {
  return withPg(databaseUrl, async (c) => {
    const r = await c.query<{ time: number }>('SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time"', [
      researchId,
    ]);
    return r.rows.map((row) => row.time);
  });
}
