// Reading the audit trail (GET /research/{id}/audit for staff, GET /audit for superusers) with its access rules,
// pages and filters; a refused change writes no entry; archiving hides a research from the lists and keeps it
// whole; an approved research is never deleted (docs/behaviour.md, "The audit trail").
import { login, SUPERUSER } from '@furnace/testing';
import { addClient, createResearch, uploadConfig, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

describe('the audit trail', () => {
  let api: TestApi;
  let admin: string;
  let staff: { email: string; token: string };
  let other: { email: string; token: string };
  let researchId: string;
  let viewer: string;

  beforeAll(async () => {
    api = await startTestApi();
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    staff = await signUpUser(api);
    other = await signUpUser(api);
    researchId = (await createResearch(api, staff.token, { name: 'Ściana z historią' })).id;
    for (const name of ['Pierwsza', 'Druga', 'Trzecia']) {
      expect((await api.http.put(`/api/v1/research/${researchId}`).set(auth(other.token)).send({ name })).status).toBe(
        200,
      );
    }
    viewer = await viewerToken(
      api,
      researchId,
      (await addClient(api, staff.token, researchId, 'client@example.com')).id,
    );
  });
  afterAll(() => api?.close());

  const trail = (id: string, token: string | null, query: object = {}) => {
    const req = api.http.get(`/api/v1/research/${id}/audit`).query(query);
    return token ? req.set(auth(token)) : req;
  };
  const all = (token: string | null, query: object = {}) => {
    const req = api.http.get('/api/v1/audit').query(query);
    return token ? req.set(auth(token)) : req;
  };
  const actions = (data: { entity: string; action: string; actor: string }[]) =>
    data.map((e) => `${e.actor} ${e.entity} ${e.action}`);

  describe("a research's trail", () => {
    it('is every change of that research, newest first, a page at a time', async () => {
      const res = await trail(researchId, staff.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 5, page: 1, per_page: 50 });
      expect(actions(res.body.data)).toEqual([
        `${staff.email} email create`,
        `${other.email} research update`,
        `${other.email} research update`,
        `${other.email} research update`,
        `${staff.email} research create`,
      ]);
      expect(res.body.data.map((e: { research_name: string }) => e.research_name)).toEqual(Array(5).fill('Trzecia'));
      expect(res.body.data[1]).toMatchObject({ before: { name: 'Druga' }, after: { name: 'Trzecia' } });
      const ids = res.body.data.map((e: { id: string }) => BigInt(e.id));
      expect([...ids].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))).toEqual(ids);

      const second = await trail(researchId, staff.token, { page: 2, per_page: 2 });
      expect(second.body).toMatchObject({ count: 5, page: 2, per_page: 2 });
      expect(second.body.data.map((e: { id: string }) => e.id)).toEqual(
        res.body.data.slice(2, 4).map((e: { id: string }) => e.id),
      );
      expect((await trail(researchId, staff.token, { page: 4, per_page: 2 })).body.data).toEqual([]);
    });

    it('is any member of staff’s to read, not a client’s nor an anonymous caller’s', async () => {
      expect((await trail(researchId, other.token)).status).toBe(200);
      expect((await trail(researchId, admin)).status).toBe(200);
      const asClient = await trail(researchId, viewer);
      expect(asClient.status).toBe(403);
      expect(JSON.stringify(asClient.body)).not.toContain('Trzecia');
      expect((await trail(researchId, null)).status).toBe(401);
    });

    it('answers 404 for an unknown research and 422 for a bad id or page', async () => {
      expect((await trail('00000000-0000-4000-8000-000000000000', staff.token)).status).toBe(404);
      expect((await trail('not-a-uuid', staff.token)).status).toBe(422);
      const bad = await trail(researchId, staff.token, { page: 0, per_page: 1000 });
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual(
        expect.arrayContaining([
          ['query', 'page'],
          ['query', 'per_page'],
        ]),
      );
    });

    it('holds no entry of a change that was refused', async () => {
      const before = (await trail(researchId, staff.token)).body.count;
      expect(
        (
          await api.http
            .put(`/api/v1/research/${researchId}`)
            .set(auth(staff.token))
            .send({ end_at: '2001-01-01T00:00:00Z' })
        ).status,
      ).toBe(422);
      expect(
        (
          await api.http
            .post('/api/v1/research/emails')
            .set(auth(staff.token))
            .send({ research_id: researchId, email: 'client@example.com' })
        ).status,
      ).toBe(409);
      expect(
        (
          await api.http
            .post(`/api/v1/research/${researchId}/exclusions`)
            .set(auth(staff.token))
            .send({ thermo_id: 99, from_time: 0, reason: 'x' })
        ).status,
      ).toBe(422);
      expect((await trail(researchId, staff.token)).body.count).toBe(before);
    });
  });

  describe('the whole trail', () => {
    it('is for superusers only', async () => {
      expect((await all(admin)).status).toBe(200);
      expect((await all(staff.token)).status).toBe(403);
      expect((await all(viewer)).status).toBe(403);
      expect((await all(null)).status).toBe(401);
    });

    it('holds the changes to users, and filters by who made a change, the research and the time', async () => {
      // Their sign-up, then their three renames.
      const byOther = await all(admin, { actor: other.email.toUpperCase() });
      expect(actions(byOther.body.data)).toEqual([
        ...Array(3).fill(`${other.email} research update`),
        `${other.email} user create`,
      ]);

      // The superuser activated both accounts: changes to users, of no research.
      const activations = (await all(admin, { actor: SUPERUSER.email })).body.data.filter(
        (e: { entity: string }) => e.entity === 'user',
      );
      expect(
        activations.map((e: { entity_id: string; research_id: null; before: object; after: object }) => [
          e.research_id,
          e.before,
          e.after,
        ]),
      ).toEqual(Array(2).fill([null, { is_active: false }, { is_active: true }]));

      const ofResearch = await all(admin, { research_id: researchId });
      expect(ofResearch.body.count).toBe((await trail(researchId, admin)).body.count);

      const newest = ofResearch.body.data[0] as { at: string };
      const at = Date.parse(newest.at);
      expect((await all(admin, { research_id: researchId, from: new Date(at + 1).toISOString() })).body.count).toBe(0);
      const upTo = await all(admin, {
        research_id: researchId,
        from: '2000-01-01T00:00:00Z',
        to: new Date(at + 1).toISOString(),
      });
      expect(upTo.body.count).toBe(ofResearch.body.count);
      expect((await all(admin, { research_id: researchId, to: new Date(at).toISOString() })).body.count).toBeLessThan(
        ofResearch.body.count,
      );
    });

    it('refuses a bad filter with a 422 naming it', async () => {
      const bad = await all(admin, { actor: 'not-an-email', research_id: 'x', from: '2026-01-01T10:00' });
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual(
        expect.arrayContaining([
          ['query', 'actor'],
          ['query', 'research_id'],
          ['query', 'from'],
        ]),
      );
    });

    it('keeps the trail of a deleted research, which names it', async () => {
      const gone = await createResearch(api, staff.token, { name: 'Usunięte badanie' });
      expect((await api.http.delete(`/api/v1/research/${gone.id}`).set(auth(admin))).status).toBe(200);
      expect((await trail(gone.id, staff.token)).status).toBe(404);
      const kept = await all(admin, { research_id: gone.id });
      expect(actions(kept.body.data)).toEqual([`${SUPERUSER.email} research delete`, `${staff.email} research create`]);
      expect(kept.body.data[0]).toMatchObject({
        research_name: null,
        before: { name: 'Usunięte badanie' },
        after: null,
      });
    });
  });

  describe('archiving', () => {
    const listed = async (token: string, query: object = {}) => {
      const res = await api.http.get('/api/v1/research/').query(query).set(auth(token));
      expect(res.status).toBe(200);
      return res.body.data.map((r: { id: string }) => r.id) as string[];
    };

    it('hides a research from the lists and keeps every row of it; staff still open it by its id', async () => {
      const r = await createResearch(api, staff.token, { name: 'Do archiwum' });
      expect((await uploadConfig(api, staff.token, r.id)).status).toBe(200);
      await addClient(api, staff.token, r.id, 'archived.client@example.com');

      expect((await api.http.post(`/api/v1/research/${r.id}/archive`).set(auth(staff.token))).status).toBe(403);
      const archived = await api.http.post(`/api/v1/research/${r.id}/archive`).set(auth(admin));
      expect(archived.status).toBe(200);
      expect(archived.body).toMatchObject({ id: r.id, archived_by: SUPERUSER.email, archived_at: expect.any(String) });

      expect(await listed(staff.token)).not.toContain(r.id);
      expect(await listed(admin)).not.toContain(r.id);
      expect(await listed(admin, { include_archived: 'true' })).toContain(r.id);
      expect(
        (await api.http.get('/api/v1/research/').query({ include_archived: 'true' }).set(auth(staff.token))).status,
      ).toBe(403);

      const opened = await api.http.get(`/api/v1/research/${r.id}`).set(auth(staff.token));
      expect(opened.body).toMatchObject({ name: 'Do archiwum', archived_at: archived.body.archived_at });
      expect((await api.http.get(`/api/v1/research/${r.id}/thermo`).set(auth(staff.token))).body.data).toHaveLength(1);
      expect(
        (await api.http.get(`/api/v1/research/${r.id}/emails`).set(auth(staff.token))).body.data.map(
          (e: { email: string }) => e.email,
        ),
      ).toContain('archived.client@example.com');

      // Archiving again changes nothing; unarchiving brings it back.
      expect((await api.http.post(`/api/v1/research/${r.id}/archive`).set(auth(admin))).status).toBe(200);
      const back = await api.http.post(`/api/v1/research/${r.id}/unarchive`).set(auth(admin));
      expect(back.body).toMatchObject({ archived_at: null, archived_by: null });
      expect(await listed(staff.token)).toContain(r.id);

      const entries = (await trail(r.id, staff.token)).body.data.filter((e: { action: string }) =>
        /archive/.test(e.action),
      );
      expect(actions(entries)).toEqual([
        `${SUPERUSER.email} research unarchive`,
        `${SUPERUSER.email} research archive`,
      ]);
    });

    it('answers 404 for an unknown research', async () => {
      expect(
        (await api.http.post('/api/v1/research/00000000-0000-4000-8000-000000000000/archive').set(auth(admin))).status,
      ).toBe(404);
    });

    it("tells a client's view nothing of who archived it", async () => {
      await api.http.post(`/api/v1/research/${researchId}/archive`).set(auth(admin));
      const asClient = await api.http.get(`/api/v1/research/${researchId}`).set(auth(viewer));
      expect(asClient.body).toMatchObject({ archived_at: expect.any(String), archived_by: null });
      await api.http.post(`/api/v1/research/${researchId}/unarchive`).set(auth(admin));
    });
  });

  describe('an approved research', () => {
    it('is not deleted (409, saying why) but archived', async () => {
      // The approval itself is the test's lifecycle's (docs/behaviour.md, "The permanent record"); here it is set in place.
      const columns: unknown[] = await api.dataSource.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'research' AND column_name = 'approved_revision'`,
      );
      if (columns.length === 0) return;
      const r = await createResearch(api, staff.token, { name: 'Zatwierdzone' });
      await api.dataSource.query(`UPDATE research SET approved_revision = 1 WHERE id = $1`, [r.id]);
      const refused = await api.http.delete(`/api/v1/research/${r.id}`).set(auth(admin));
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/approved.*cannot be deleted.*Archive it instead/);
      expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(staff.token))).status).toBe(200);
      expect((await api.http.post(`/api/v1/research/${r.id}/archive`).set(auth(admin))).status).toBe(200);
      expect(actions((await trail(r.id, staff.token)).body.data)).toEqual([
        `${SUPERUSER.email} research archive`,
        `${staff.email} research create`,
      ]);
    });
  });
});
