import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from './testing';

// The audit trail is append-only in the database itself (migration AuditTrail): whatever connects, plain SQL
// adds entries and can neither change nor remove one (docs/behaviour.md, "The audit trail").
describe('audit_entry', () => {
  let db: TestDatabase;
  let sql: Client;
  let id: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    const inserted = await sql.query<{ id: string }>(
      `INSERT INTO audit_entry (actor, research_id, entity, entity_id, action, before, after)
       VALUES ('staff@example.com', NULL, 'user', 'u-1', 'update', '{"is_active": false}', '{"is_active": true}') RETURNING id`,
    );
    id = inserted.rows[0]!.id;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  const refusal = (statement: string, params: unknown[] = []) =>
    sql.query(statement, params).then(
      () => 'done',
      (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
    );

  it('takes a new entry, with when it was written', async () => {
    const { rows } = await sql.query(`SELECT actor, entity, action, before, after, at FROM audit_entry WHERE id = $1`, [
      id,
    ]);
    expect(rows[0]).toMatchObject({
      actor: 'staff@example.com',
      entity: 'user',
      action: 'update',
      before: { is_active: false },
      after: { is_active: true },
    });
    expect(Date.now() - (rows[0].at as Date).getTime()).toBeLessThan(60_000);
  });

  it('refuses UPDATE, DELETE and TRUNCATE, and the entry stays as it was', async () => {
    expect(await refusal(`UPDATE audit_entry SET actor = 'someone-else@example.com' WHERE id = $1`, [id])).toBe(
      '42501: audit_entry is append-only: UPDATE refused',
    );
    expect(await refusal(`UPDATE audit_entry SET after = NULL`)).toBe(
      '42501: audit_entry is append-only: UPDATE refused',
    );
    expect(await refusal(`DELETE FROM audit_entry WHERE id = $1`, [id])).toBe(
      '42501: audit_entry is append-only: DELETE refused',
    );
    expect(await refusal(`DELETE FROM audit_entry`)).toBe('42501: audit_entry is append-only: DELETE refused');
    expect(await refusal(`TRUNCATE audit_entry`)).toBe('42501: audit_entry is append-only: TRUNCATE refused');
    const { rows } = await sql.query(`SELECT count(*)::int AS n, max(actor) AS actor FROM audit_entry`);
    expect(rows[0]).toEqual({ n: 1, actor: 'staff@example.com' });
  });

  it('refuses them inside a transaction too, which then commits nothing', async () => {
    await sql.query('BEGIN');
    await sql.query(`INSERT INTO audit_entry (actor, entity, action) VALUES ('staff@example.com', 'url', 'create')`);
    expect(await refusal(`DELETE FROM audit_entry WHERE id = $1`, [id])).toMatch(/append-only: DELETE refused/);
    await sql.query('ROLLBACK');
    expect((await sql.query(`SELECT count(*)::int AS n FROM audit_entry`)).rows[0]).toEqual({ n: 1 });
  });
});
