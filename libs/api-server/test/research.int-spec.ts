import { researchChannel, parseBusMessage } from '@furnace/contracts';
import { login, researchBody, SUPERUSER } from '@furnace/testing';
import { createResearch } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

describe('researches and their stream links', () => {
  let api: TestApi;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    api = await startTestApi({ INTERNAL_CLIENT_EMAIL: 'Lab@Example.com' });
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    user = (await signUpUser(api)).token;
  });
  afterAll(() => api?.close());

  /** Collects the UPDATE notices the API publishes on the bus for one research. */
  async function watchUpdates(researchId: string) {
    const kinds: string[] = [];
    const stop = await api.bus.subscribe(researchChannel(researchId), (raw) => {
      const m = parseBusMessage(raw);
      if (m.ok && m.value.type === 'update') kinds.push(m.value.kind);
    });
    return { kinds, stop };
  }
  const settle = () => new Promise((r) => setTimeout(r, 150));

  it('creates a research with a trimmed name, and adds the lab address to its clients', async () => {
    const body = researchBody({
      name: '  Drzwi EI 30  ',
      start_at: '2026-03-01T09:00:00+01:00',
      end_at: '2026-03-01T13:00:00+01:00',
    });
    const res = await api.http.post('/api/v1/research/').set(auth(user)).send(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Drzwi EI 30',
      start_at: '2026-03-01T08:00:00.000Z',
      end_at: '2026-03-01T12:00:00.000Z',
      is_radiance: true,
    });
    const emails = await api.http.get(`/api/v1/research/${res.body.id}/emails`).set(auth(user));
    expect(emails.body.data.map((e: { email: string }) => e.email)).toEqual(['lab@example.com']);
  });

  it('lists researches newest start first', async () => {
    const older = await createResearch(api, user, { start_at: '2020-01-01T10:00:00Z', end_at: '2020-01-01T12:00:00Z' });
    const newer = await createResearch(api, user, { start_at: '2030-01-01T10:00:00Z', end_at: '2030-01-01T12:00:00Z' });
    const list = await api.http.get('/api/v1/research/').set(auth(user));
    const ids = list.body.data.map((r: { id: string }) => r.id);
    expect(ids[0]).toBe(newer.id);
    expect(ids[ids.length - 1]).toBe(older.id);
    const starts = list.body.data.map((r: { start_at: string }) => r.start_at);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it('refuses bad bodies with the field named, and stores nothing', async () => {
    const before = (await api.http.get('/api/v1/research/').set(auth(user))).body.data.length;
    const cases: [object, string[]][] = [
      [{ ...researchBody(), name: '   ' }, ['body', 'name']],
      [{ ...researchBody(), start_at: 'yesterday' }, ['body', 'start_at']],
      [{ ...researchBody(), start_at: '2026-01-01T10:00' }, ['body', 'start_at']],
      [{ ...researchBody(), end_at: '2000-01-01T00:00:00Z' }, ['body', 'end_at']],
      [{ ...researchBody(), is_pressure: 'yes' }, ['body', 'is_pressure']],
      [{ ...researchBody(), owner: 'me' }, ['body', 'owner']],
    ];
    for (const [body, loc] of cases) {
      const res = await api.http.post('/api/v1/research/').set(auth(user)).send(body);
      expect(res.status).toBe(422);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(loc);
    }
    expect((await api.http.get('/api/v1/research/').set(auth(user))).body.data.length).toBe(before);
  });

  it('updates partially, keeps the time window valid, and tells live viewers', async () => {
    const r = await createResearch(api, user);
    const watch = await watchUpdates(r.id);
    const res = await api.http.put(`/api/v1/research/${r.id}`).set(auth(user)).send({ is_pressure: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: r.id, name: r.name, is_pressure: true });
    const bad = await api.http.put(`/api/v1/research/${r.id}`).set(auth(user)).send({ end_at: '2001-01-01T00:00:00Z' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'end_at']);
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(user))).body.is_pressure).toBe(true);
    await settle();
    expect(watch.kinds).toEqual(['RESEARCH']);
    await watch.stop();
  });

  it('lets only a superuser delete, taking links and e-mails with it', async () => {
    const r = await createResearch(api, user);
    await api.http
      .post('/api/v1/research/urls')
      .set(auth(user))
      .send({ research_id: r.id, url: 'https://youtu.be/dQw4w9WgXcQ' })
      .expect(200);
    expect((await api.http.delete(`/api/v1/research/${r.id}`).set(auth(user))).status).toBe(403);
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(user))).status).toBe(200);
    expect((await api.http.delete(`/api/v1/research/${r.id}`).set(auth(admin))).status).toBe(200);
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(user))).status).toBe(404);
    const orphans = await api.dataSource.query('SELECT count(*)::int AS n FROM research_url WHERE research_id = $1', [
      r.id,
    ]);
    expect(orphans[0].n).toBe(0);
    const emails = await api.dataSource.query('SELECT count(*)::int AS n FROM research_email WHERE research_id = $1', [
      r.id,
    ]);
    expect(emails[0].n).toBe(0);
  });

  it('keeps http(s) stream links only, and announces each change', async () => {
    const r = await createResearch(api, user);
    const watch = await watchUpdates(r.id);
    for (const url of ['javascript:alert(1)', 'ftp://cam.local/x', 'not a link', 'data:text/html,hi']) {
      const res = await api.http.post('/api/v1/research/urls').set(auth(user)).send({ research_id: r.id, url });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'url']);
    }
    const created = await api.http
      .post('/api/v1/research/urls')
      .set(auth(user))
      .send({ research_id: r.id, url: 'https://cam.lab.example/live/stream.m3u8' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ research_id: r.id, url: 'https://cam.lab.example/live/stream.m3u8' });
    const updated = await api.http
      .put(`/api/v1/research/urls/${created.body.id}`)
      .set(auth(user))
      .send({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
    expect(updated.body.url).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect((await api.http.get(`/api/v1/research/urls/${created.body.id}`).set(auth(user))).body.url).toBe(
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    );
    const list = await api.http.get(`/api/v1/research/${r.id}/urls`).set(auth(user));
    expect(list.body.data).toHaveLength(1);
    await api.http.delete(`/api/v1/research/urls/${created.body.id}`).set(auth(user)).expect(200);
    expect((await api.http.get(`/api/v1/research/${r.id}/urls`).set(auth(user))).body.data).toEqual([]);
    expect(
      (
        await api.http
          .post('/api/v1/research/urls')
          .set(auth(user))
          .send({ research_id: '00000000-0000-4000-8000-000000000000', url: 'https://x.example' })
      ).status,
    ).toBe(404);
    await settle();
    expect(watch.kinds).toEqual(['LIVESTREAM', 'LIVESTREAM', 'LIVESTREAM']);
    await watch.stop();
  });

  it('serves the twelve measurement types with their critical values', async () => {
    const res = await api.http.get('/api/v1/measurement-types');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(12);
    expect(res.body.data[0]).toMatchObject({ name: 'Tśr i Tmax', critical_max: 180, critical_mean: 140 });
    expect(res.body.data.find((t: { name: string }) => t.name === 'Tmax ościeżnicy')).toMatchObject({
      critical_max: 360,
      critical_mean: null,
    });
    expect(res.body.data.find((t: { name: string }) => t.name === 'T')).toMatchObject({
      critical_max: null,
      critical_mean: null,
    });
  });
});
