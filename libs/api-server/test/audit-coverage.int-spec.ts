// Every route that changes something writes the audit trail, or says why it does not (audit/audited.decorator.ts).
// Each audited route is called here through HTTP and its entries read back through GET /audit: who made the
// change, what it changed, the values before and after, and never a password, a hash, a client's access code
// or a file's bytes. A new changing route fails here until it declares what it audits and has its case below.
import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { login, researchBody, SUPERUSER } from '@furnace/testing';
import { listRouteRules, type RouteRule } from '../src/core/access-rules.check';
import { addClient, configText, createResearch, SPECIMEN_PNG, uploadConfig, VALID_CONFIG } from './factories';
import { auth, newUser, signUpUser, startTestApi, type TestApi } from './harness';

interface Entry {
  id: string;
  at: string;
  actor: string | null;
  research_id: string | null;
  research_name: string | null;
  entity: string;
  entity_id: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The entries one change wrote (oldest first), and who made it. */
interface Written {
  actor: string | null;
  entries: Entry[];
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Reads a response body as bytes whatever its type. */
function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

let api: TestApi;
let admin: string;
let staff: { email: string; password: string; token: string };
let researchId: string;

beforeAll(async () => {
  api = await startTestApi({ INTERNAL_CLIENT_EMAIL: 'lab@example.com' });
  admin = await login(api, SUPERUSER.email, SUPERUSER.password);
  staff = await signUpUser(api);
  researchId = (await createResearch(api, staff.token)).id;
  // Thermocouples 1–3, for the exclusions.
  expect((await uploadConfig(api, staff.token, researchId)).status).toBe(200);
});
afterAll(() => api?.close());

const ok = (res: Response, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

async function newestId(): Promise<bigint> {
  const res = ok(await api.http.get('/api/v1/audit').query({ per_page: 1 }).set(auth(admin)), 'audit');
  return res.body.data.length ? BigInt(res.body.data[0].id) : 0n;
}

/** Makes the change (`send`, with `actor`'s credentials) and reads back the entries it wrote. */
async function change(actor: string | null, send: () => PromiseLike<Response>): Promise<Written & { res: Response }> {
  const from = await newestId();
  const res = ok(await send(), 'the change');
  const page = ok(await api.http.get('/api/v1/audit').query({ per_page: 200 }).set(auth(admin)), 'audit');
  const entries = (page.body.data as Entry[]).filter((e) => BigInt(e.id) > from).reverse();
  return { actor, entries, res };
}

/** A research whose schedule has ended: it may be reviewed. */
const endedResearch = () =>
  createResearch(api, staff.token, {
    start_at: new Date(Date.now() - 3 * 3600_000).toISOString(),
    end_at: new Date(Date.now() - 3600_000).toISOString(),
  });

const byEntity = (entries: Entry[], entity: string) => entries.filter((e) => e.entity === entity);
const one = (entries: Entry[], entity: string) => {
  const found = byEntity(entries, entity);
  expect(found).toHaveLength(1);
  return found[0]!;
};

const thermoUpload = async () => ok(await uploadConfig(api, staff.token, researchId), 'upload').body as { id: string };
const saveConfig = (id: string, text: string) =>
  api.http
    .put(`/api/v1/research/thermo/${id}/config`)
    .set(auth(staff.token))
    .attach('config_file', Buffer.from(text, 'utf8'), 'edited.txt');
const addUrl = async (url = 'https://cam.example/live') =>
  ok(await api.http.post('/api/v1/research/urls').set(auth(staff.token)).send({ research_id: researchId, url }), 'url')
    .body as { id: string };
const observe = async (body: object) =>
  ok(
    await api.http.post(`/api/v1/research/${researchId}/observations`).set(auth(staff.token)).send(body),
    'observation',
  ).body as { id: string };
const accountBy = async (fields: object = {}) => {
  const u = newUser();
  const res = ok(
    await api.http
      .post('/api/v1/users/')
      .set(auth(admin))
      .send({ ...u, ...fields }),
    'user',
  );
  return { ...u, id: res.body.id as string };
};
const ownAccount = async () => {
  const u = await accountBy();
  return { ...u, token: await login(api, u.email, u.password) };
};

/** One case per audited route (Controller.handler): the change, and what its entries must say. */
const CASES: Record<string, () => Promise<Written>> = {
  // The review of an ended test (docs/behaviour.md §13): scheduled from three hours ago to one hour ago.
  'ReviewController.review': async () => {
    const r = await endedResearch();
    const w = await change(staff.email, () =>
      api.http.post(`/api/v1/research/${r.id}/review`).set(auth(staff.token)).send({ comment: 'Sprawdzone' }),
    );
    expect(one(w.entries, 'review')).toMatchObject({
      action: 'review',
      entity_id: r.id,
      before: null,
      after: { reviewed_by: staff.email, review_comment: 'Sprawdzone' },
    });
    return w;
  },
  'ReviewController.approve': async () => {
    const r = await endedResearch();
    ok(await api.http.post(`/api/v1/research/${r.id}/review`).set(auth(staff.token)), 'review');
    const w = await change(SUPERUSER.email, () =>
      api.http.post(`/api/v1/research/${r.id}/approve`).set(auth(admin)).send({ comment: 'Zatwierdzam' }),
    );
    expect(one(w.entries, 'review')).toMatchObject({
      action: 'approve',
      before: { revision: null, approved_by: null },
      after: { revision: 1, approved_by: SUPERUSER.email, approval_comment: 'Zatwierdzam' },
    });
    return w;
  },
  'ReviewController.reopen': async () => {
    const r = await endedResearch();
    ok(await api.http.post(`/api/v1/research/${r.id}/review`).set(auth(staff.token)), 'review');
    ok(await api.http.post(`/api/v1/research/${r.id}/approve`).set(auth(admin)), 'approve');
    const w = await change(SUPERUSER.email, () =>
      api.http.post(`/api/v1/research/${r.id}/reopen`).set(auth(admin)).send({ reason: 'Poprawka' }),
    );
    expect(one(w.entries, 'review')).toMatchObject({
      action: 'reopen',
      before: { revision: 1, approved_by: SUPERUSER.email },
      after: { reason: 'Poprawka' },
    });
    return w;
  },
  'ResearchController.create': async () => {
    const w = await change(staff.email, () =>
      api.http
        .post('/api/v1/research/')
        .set(auth(staff.token))
        .send(researchBody({ name: 'Drzwi EI 60', sponsor: 'ACME' })),
    );
    const research = one(w.entries, 'research');
    expect(research).toMatchObject({
      action: 'create',
      research_id: w.res.body.id,
      entity_id: w.res.body.id,
      before: null,
    });
    expect(research.after).toMatchObject({
      name: 'Drzwi EI 60',
      standard: 'EN_1363_1',
      t0_override: null,
      sponsor: 'ACME',
      classification_to_clients: true,
    });
    expect(one(w.entries, 'email')).toMatchObject({
      action: 'create',
      entity_id: null,
      after: { email: 'lab@example.com', is_sent: false },
    });
    return w;
  },
  'ResearchController.update': async () => {
    const r = await createResearch(api, staff.token, { name: 'Przed zmianą' });
    const w = await change(staff.email, () =>
      api.http.put(`/api/v1/research/${r.id}`).set(auth(staff.token)).send({
        name: 'Po zmianie',
        classification_to_clients: false,
        standard: 'EN_1634_1',
        t0_override: 21.5,
        sponsor: 'ACME',
        report_number: 'LAB/2026/017',
      }),
    );
    expect(w.entries.map((e) => [e.entity, e.action, e.entity_id])).toEqual([
      ['research', 'update', r.id],
      ['profile', 'update', r.id],
      ['t0', 'update', r.id],
      ['report', 'update', r.id],
    ]);
    // Only what changed, as it was and as it is.
    expect(one(w.entries, 'research')).toMatchObject({
      before: { name: 'Przed zmianą', classification_to_clients: true },
      after: { name: 'Po zmianie', classification_to_clients: false },
    });
    expect(one(w.entries, 'profile')).toMatchObject({
      before: { standard: 'EN_1363_1', insulation: null },
      after: { standard: 'EN_1634_1', insulation: 'I2' },
    });
    expect(one(w.entries, 't0')).toMatchObject({ before: { t0_override: null }, after: { t0_override: 21.5 } });
    expect(one(w.entries, 'report')).toMatchObject({
      before: { sponsor: null, report_number: null },
      after: { sponsor: 'ACME', report_number: 'LAB/2026/017' },
    });
    expect(Object.keys(one(w.entries, 'report').after!).sort()).toEqual(['report_number', 'sponsor']);
    // A change that changes nothing writes nothing.
    const same = await change(staff.email, () =>
      api.http.put(`/api/v1/research/${r.id}`).set(auth(staff.token)).send({ name: 'Po zmianie' }),
    );
    expect(same.entries).toEqual([]);
    return w;
  },
  'ResearchController.delete': async () => {
    const r = await createResearch(api, staff.token, { name: 'Do usunięcia' });
    const w = await change(SUPERUSER.email, () => api.http.delete(`/api/v1/research/${r.id}`).set(auth(admin)));
    const entry = one(w.entries, 'research');
    expect(entry).toMatchObject({
      action: 'delete',
      research_id: r.id,
      research_name: null,
      after: null,
      before: { name: 'Do usunięcia', standard: 'EN_1363_1' },
    });
    return w;
  },
  'ResearchController.archive': async () => {
    const r = await createResearch(api, staff.token);
    const w = await change(SUPERUSER.email, () => api.http.post(`/api/v1/research/${r.id}/archive`).set(auth(admin)));
    expect(one(w.entries, 'research')).toMatchObject({
      action: 'archive',
      before: { archived_at: null, archived_by: null },
      after: { archived_at: w.res.body.archived_at, archived_by: SUPERUSER.email },
    });
    return w;
  },
  'ResearchController.unarchive': async () => {
    const r = await createResearch(api, staff.token);
    ok(await api.http.post(`/api/v1/research/${r.id}/archive`).set(auth(admin)), 'archive');
    const w = await change(SUPERUSER.email, () => api.http.post(`/api/v1/research/${r.id}/unarchive`).set(auth(admin)));
    expect(one(w.entries, 'research')).toMatchObject({
      action: 'unarchive',
      before: { archived_by: SUPERUSER.email },
      after: { archived_at: null, archived_by: null },
    });
    return w;
  },
  // The archive's import (docs/behaviour.md, "The archive"): the copy of the test's trail, then the import itself.
  'ArchiveController.import': async () => {
    const r = await createResearch(api, staff.token);
    const zip = ok(
      await api.http
        .get(`/api/v1/research/${r.id}/archive.zip`)
        .set(auth(staff.token))
        .buffer(true)
        .parse(bytes as never),
      'archive',
    ).body as Buffer;
    const w = await change(SUPERUSER.email, () =>
      api.http.post('/api/v1/research/import').set(auth(admin)).attach('file', zip, 'archiwum.zip'),
    );
    const created = w.res.body.id as string;
    expect(w.entries.map((e) => [e.research_id, e.entity, e.action])).toEqual([
      [created, 'research', 'create'],
      // The lab's own address, added to every new test's e-mails.
      [created, 'email', 'create'],
      [created, 'research', 'import'],
    ]);
    expect(w.entries[2]).toMatchObject({
      actor: SUPERUSER.email,
      entity_id: created,
      before: null,
      after: { from_research_id: r.id, name: r.name, readings: 0 },
    });
    // The copies keep who made each change and when; what the import itself wrote is its own entry.
    return { ...w, entries: w.entries.slice(2) };
  },
  'ResearchController.createUrl': async () => {
    const w = await change(staff.email, () =>
      api.http
        .post('/api/v1/research/urls')
        .set(auth(staff.token))
        .send({ research_id: researchId, url: 'https://viewer:s3cret-pass@cam.example/live' }),
    );
    expect(one(w.entries, 'url')).toMatchObject({
      action: 'create',
      research_id: researchId,
      entity_id: w.res.body.id,
      after: { url: 'https://cam.example/live' },
    });
    expect(JSON.stringify(w.entries)).not.toContain('s3cret-pass');
    return w;
  },
  'ResearchController.updateUrl': async () => {
    const url = await addUrl('https://cam.example/one');
    const w = await change(staff.email, () =>
      api.http.put(`/api/v1/research/urls/${url.id}`).set(auth(staff.token)).send({ url: 'https://cam.example/two' }),
    );
    expect(one(w.entries, 'url')).toMatchObject({
      action: 'update',
      entity_id: url.id,
      before: { url: 'https://cam.example/one' },
      after: { url: 'https://cam.example/two' },
    });
    return w;
  },
  'ResearchController.deleteUrl': async () => {
    const url = await addUrl('https://cam.example/gone');
    const w = await change(staff.email, () =>
      api.http.delete(`/api/v1/research/urls/${url.id}`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'url')).toMatchObject({
      action: 'delete',
      entity_id: url.id,
      before: { url: 'https://cam.example/gone' },
      after: null,
    });
    return w;
  },
  'EmailsController.create': async () => {
    const w = await change(staff.email, () =>
      api.http
        .post('/api/v1/research/emails')
        .set(auth(staff.token))
        .send({ research_id: researchId, email: 'Client.A@Example.com' }),
    );
    expect(one(w.entries, 'email')).toMatchObject({
      action: 'create',
      research_id: researchId,
      entity_id: null,
      after: { email: 'client.a@example.com', is_sent: false },
    });
    // The record's id is the client's access code: never in the trail.
    expect(JSON.stringify(w.entries)).not.toContain(w.res.body.id);
    return w;
  },
  'EmailsController.update': async () => {
    const record = await addClient(api, staff.token, researchId, 'client.b@example.com');
    const w = await change(staff.email, () =>
      api.http
        .put(`/api/v1/research/emails/${record.id}`)
        .set(auth(staff.token))
        .send({ email: 'client.c@example.com' }),
    );
    expect(one(w.entries, 'email')).toMatchObject({
      action: 'update',
      entity_id: null,
      before: { email: 'client.b@example.com' },
      after: { email: 'client.c@example.com', is_sent: false },
    });
    expect(JSON.stringify(w.entries)).not.toContain(record.id);
    expect(JSON.stringify(w.entries)).not.toContain(w.res.body.id);
    return w;
  },
  'EmailsController.delete': async () => {
    const record = await addClient(api, staff.token, researchId, 'client.d@example.com');
    const w = await change(staff.email, () =>
      api.http.delete(`/api/v1/research/emails/${record.id}`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'email')).toMatchObject({
      action: 'delete',
      before: { email: 'client.d@example.com', is_sent: false },
      after: null,
    });
    return w;
  },
  'EmailsController.send': async () => {
    const record = await addClient(api, staff.token, researchId, 'client.e@example.com');
    const w = await change(staff.email, () =>
      api.http.post(`/api/v1/research/emails/${record.id}/send`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'email')).toMatchObject({
      action: 'send',
      before: { email: 'client.e@example.com', is_sent: false },
      after: { is_sent: true },
    });
    expect(JSON.stringify(w.entries)).not.toContain(record.id);
    return w;
  },
  'EmailsController.sendAll': async () => {
    const r = await createResearch(api, staff.token);
    await addClient(api, staff.token, r.id, 'client.f@example.com');
    const w = await change(staff.email, () =>
      api.http.post(`/api/v1/research/${r.id}/emails/send`).set(auth(staff.token)),
    );
    expect(w.entries.map((e) => [e.action, e.research_id, e.after?.email, e.after?.is_sent]).sort()).toEqual([
      ['send', r.id, 'client.f@example.com', true],
      ['send', r.id, 'lab@example.com', true],
    ]);
    return w;
  },
  'ThermoController.create': async () => {
    const w = await change(staff.email, () => uploadConfig(api, staff.token, researchId));
    const entry = one(w.entries, 'thermo_config');
    expect(entry).toMatchObject({ action: 'create', research_id: researchId, entity_id: w.res.body.id, before: null });
    expect(entry.after).toMatchObject({
      image: {
        name: 'specimen.png',
        mime: 'image/png',
        width: 640,
        height: 480,
        size: expect.any(Number),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      config_file: { name: 'config.txt', size: Buffer.byteLength(VALID_CONFIG), sha256: sha256(VALID_CONFIG) },
    });
    expect(
      (entry.after!.markers as { thermo_id: number; name: string; type_name: string }[]).map((m) => [
        m.thermo_id,
        m.name,
        m.type_name,
      ]),
    ).toEqual([
      [1, 'T1', 'Tśr i Tmax'],
      [2, 'T2', 'Tśr i Tmax'],
      [3, 'T3', 'Tmax ościeżnicy'],
    ]);
    // A photo by its name, size and digest: its bytes stay out (a 640×480 PNG's base64 alone is kilobytes).
    expect(JSON.stringify(entry).length).toBeLessThan(3000);
    return w;
  },
  'ThermoController.replaceConfig': async () => {
    const config = await thermoUpload();
    const edited = configText([
      '1;T1;Tśr i Tmax;#E53935;110;100;14;130;80;64;24',
      '4;T4;Tmax;#1E88E5;200;200;14;220;180;64;24',
    ]);
    const w = await change(staff.email, () => saveConfig(config.id, edited));
    const entry = one(w.entries, 'thermo_config');
    expect(entry).toMatchObject({
      action: 'update',
      entity_id: config.id,
      before: { config_file: { name: 'config.txt', sha256: sha256(VALID_CONFIG) } },
      after: { config_file: { name: 'edited.txt', size: Buffer.byteLength(edited), sha256: sha256(edited) } },
    });
    const markers = (values: Record<string, unknown> | null) =>
      (values!.markers as { thermo_id: number; item_x: number }[]).map((m) => [m.thermo_id, m.item_x]);
    expect(markers(entry.before)).toEqual([
      [1, 100],
      [2, 300],
      [3, 500],
    ]);
    expect(markers(entry.after)).toEqual([
      [1, 110],
      [4, 200],
    ]);
    return w;
  },
  'ThermoController.delete': async () => {
    const config = await thermoUpload();
    const w = await change(staff.email, () =>
      api.http.delete(`/api/v1/research/thermo/${config.id}`).set(auth(staff.token)),
    );
    const entry = one(w.entries, 'thermo_config');
    expect(entry).toMatchObject({
      action: 'delete',
      entity_id: config.id,
      after: null,
      before: { image: { name: 'specimen.png' }, config_file: { name: 'config.txt' } },
    });
    expect(entry.before!.markers).toHaveLength(3);
    return w;
  },
  'DrawingsController.upload': async () => {
    const w = await change(staff.email, () =>
      api.http
        .post(`/api/v1/research/${researchId}/drawings`)
        .set(auth(staff.token))
        .attach('file', SPECIMEN_PNG, 'przekroj.png'),
    );
    const entry = one(w.entries, 'drawing');
    expect(entry).toMatchObject({
      action: 'create',
      entity_id: w.res.body.id,
      after: {
        name: 'przekroj.png',
        mime: 'image/png',
        size: w.res.body.size,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(Object.keys(entry.after!).sort()).toEqual(['mime', 'name', 'sha256', 'size']);
    return w;
  },
  'DrawingsController.delete': async () => {
    const drawing = ok(
      await api.http
        .post(`/api/v1/research/${researchId}/drawings`)
        .set(auth(staff.token))
        .attach('file', SPECIMEN_PNG, 'widok.png'),
      'drawing',
    ).body;
    const w = await change(staff.email, () =>
      api.http.delete(`/api/v1/research/${researchId}/drawings/${drawing.id}`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'drawing')).toMatchObject({
      action: 'delete',
      entity_id: drawing.id,
      before: { name: 'widok.png', size: drawing.size },
      after: null,
    });
    return w;
  },
  'CriteriaController.createObservation': async () => {
    const w = await change(staff.email, () =>
      api.http
        .post(`/api/v1/research/${researchId}/observations`)
        .set(auth(staff.token))
        .send({ time: 60, kind: 'note', note: 'Dym u góry', visible_to_clients: false }),
    );
    expect(one(w.entries, 'observation')).toMatchObject({
      action: 'create',
      entity_id: w.res.body.id,
      after: { time: 60, kind: 'note', note: 'Dym u góry', visible_to_clients: false },
    });
    return w;
  },
  'CriteriaController.updateObservation': async () => {
    const o = await observe({ time: 90, kind: 'note', note: 'Szczelina' });
    const w = await change(staff.email, () =>
      api.http.patch(`/api/v1/research/observations/${o.id}`).set(auth(staff.token)).send({ visible_to_clients: true }),
    );
    expect(one(w.entries, 'observation')).toMatchObject({
      action: 'update',
      entity_id: o.id,
      before: { visible_to_clients: false },
      after: { visible_to_clients: true },
    });
    return w;
  },
  'CriteriaController.deleteObservation': async () => {
    const o = await observe({ time: 120, kind: 'cotton_pad' });
    const w = await change(staff.email, () =>
      api.http.delete(`/api/v1/research/observations/${o.id}`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'observation')).toMatchObject({
      action: 'delete',
      before: { time: 120, kind: 'cotton_pad', note: null },
      after: null,
    });
    return w;
  },
  'CriteriaController.createExclusion': async () => {
    const w = await change(staff.email, () =>
      api.http
        .post(`/api/v1/research/${researchId}/exclusions`)
        .set(auth(staff.token))
        .send({ thermo_id: 2, from_time: 300, reason: 'odpadła' }),
    );
    expect(one(w.entries, 'exclusion')).toMatchObject({
      action: 'create',
      entity_id: w.res.body.id,
      after: { thermo_id: 2, from_time: 300, reason: 'odpadła' },
    });
    return w;
  },
  'CriteriaController.deleteExclusion': async () => {
    const e = ok(
      await api.http
        .post(`/api/v1/research/${researchId}/exclusions`)
        .set(auth(staff.token))
        .send({ thermo_id: 3, from_time: 600, reason: 'zimna' }),
      'exclusion',
    ).body;
    const w = await change(staff.email, () =>
      api.http.delete(`/api/v1/research/exclusions/${e.id}`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'exclusion')).toMatchObject({
      action: 'delete',
      entity_id: e.id,
      before: { thermo_id: 3, from_time: 600, reason: 'zimna' },
    });
    return w;
  },
  'UsersController.create': async () => {
    const u = newUser();
    const w = await change(SUPERUSER.email, () =>
      api.http
        .post('/api/v1/users/')
        .set(auth(admin))
        .send({ ...u, is_superuser: true }),
    );
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'create',
      research_id: null,
      entity_id: w.res.body.id,
      after: { email: u.email, full_name: u.full_name, is_active: true, is_superuser: true },
    });
    expect(JSON.stringify(w.entries)).not.toContain(u.password);
    return w;
  },
  'UsersController.updateMe': async () => {
    const me = await ownAccount();
    const w = await change(me.email, () =>
      api.http.patch('/api/v1/users/me').set(auth(me.token)).send({ full_name: 'Nowe Nazwisko' }),
    );
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'update',
      entity_id: me.id,
      before: { full_name: me.full_name },
      after: { full_name: 'Nowe Nazwisko' },
    });
    return w;
  },
  'UsersController.updatePassword': async () => {
    const me = await ownAccount();
    const w = await change(me.email, () =>
      api.http
        .patch('/api/v1/users/me/password')
        .set(auth(me.token))
        .send({ current_password: me.password, new_password: 'a-brand-new-one-1' }),
    );
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'password',
      entity_id: me.id,
      before: null,
      after: { email: me.email },
    });
    expect(JSON.stringify(w.entries)).not.toMatch(/a-brand-new-one-1|argon2/);
    return w;
  },
  'UsersController.deleteMe': async () => {
    const me = await ownAccount();
    const w = await change(me.email, () => api.http.delete('/api/v1/users/me').set(auth(me.token)));
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'delete',
      entity_id: me.id,
      before: { email: me.email, is_superuser: false },
      after: null,
    });
    return w;
  },
  'UsersController.signup': async () => {
    const u = newUser({ email: 'Self.Signup@Example.com' });
    const w = await change('self.signup@example.com', () => api.http.post('/api/v1/users/signup').send(u));
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'create',
      after: { email: 'self.signup@example.com', is_active: false, is_superuser: false },
    });
    return w;
  },
  'UsersController.update': async () => {
    const target = await accountBy();
    const w = await change(SUPERUSER.email, () =>
      api.http
        .patch(`/api/v1/users/${target.id}`)
        .set(auth(admin))
        .send({ is_superuser: true, is_active: false, password: 'set-by-the-admin-1' }),
    );
    const entries = byEntity(w.entries, 'user');
    expect(entries.map((e) => e.action)).toEqual(['update', 'password']);
    expect(entries[0]).toMatchObject({
      entity_id: target.id,
      before: { is_superuser: false, is_active: true },
      after: { is_superuser: true, is_active: false },
    });
    expect(JSON.stringify(w.entries)).not.toMatch(/set-by-the-admin-1|argon2|hashed/);
    return w;
  },
  'UsersController.delete': async () => {
    const target = await accountBy();
    const w = await change(SUPERUSER.email, () => api.http.delete(`/api/v1/users/${target.id}`).set(auth(admin)));
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'delete',
      entity_id: target.id,
      before: { email: target.email },
      after: null,
    });
    return w;
  },
  'FurnacesController.create': async () => {
    const w = await change(SUPERUSER.email, () =>
      api.http
        .post('/api/v1/furnaces')
        .set(auth(admin))
        .send({ name: 'Piec audytowany', code: 'audit-new', scan_period_s: 2 }),
    );
    expect(one(w.entries, 'furnace')).toMatchObject({
      action: 'create',
      research_id: null,
      entity_id: w.res.body.id,
      before: null,
      after: { name: 'Piec audytowany', code: 'audit-new', scan_period_s: 2 },
    });
    return w;
  },
  'FurnacesController.update': async () => {
    const f = ok(
      await api.http.post('/api/v1/furnaces').set(auth(admin)).send({ name: 'Piec stary', code: 'audit-upd' }),
      'furnace',
    ).body;
    const w = await change(SUPERUSER.email, () =>
      api.http.patch(`/api/v1/furnaces/${f.id}`).set(auth(admin)).send({ name: 'Piec nowy' }),
    );
    expect(one(w.entries, 'furnace')).toMatchObject({
      action: 'update',
      entity_id: f.id,
      before: { name: 'Piec stary' },
      after: { name: 'Piec nowy' },
    });
    // The webhook's secret never: only whether one is set.
    const secret = 'a-secret-never-in-the-audit-trail';
    const withSecret = await change(SUPERUSER.email, () =>
      api.http.patch(`/api/v1/furnaces/${f.id}`).set(auth(admin)).send({ webhook_secret: secret }),
    );
    expect(one(withSecret.entries, 'furnace')).toMatchObject({
      before: { webhook_secret_set: false },
      after: { webhook_secret_set: true },
    });
    expect(JSON.stringify(withSecret.entries)).not.toContain(secret);
    return w;
  },
  'FurnacesController.delete': async () => {
    const f = ok(
      await api.http.post('/api/v1/furnaces').set(auth(admin)).send({ name: 'Piec do usunięcia', code: 'audit-del' }),
      'furnace',
    ).body;
    const w = await change(SUPERUSER.email, () => api.http.delete(`/api/v1/furnaces/${f.id}`).set(auth(admin)));
    expect(one(w.entries, 'furnace')).toMatchObject({
      action: 'delete',
      entity_id: f.id,
      before: { code: 'audit-del' },
      after: null,
    });
    return w;
  },
  'UnassignedController.attach': async () => {
    const f = ok(
      await api.http.post('/api/v1/furnaces').set(auth(admin)).send({ name: 'Piec z odczytami', code: 'audit-att' }),
      'furnace',
    ).body;
    const start = Date.now() - 2 * 3600_000;
    const test = await createResearch(api, staff.token, {
      furnace_id: f.id,
      start_at: new Date(start).toISOString(),
      end_at: new Date(start + 3600_000).toISOString(),
    });
    await api.dataSource.query(
      `INSERT INTO furnace_reading (furnace_id, "time", daq_time, pk) VALUES ($1, to_timestamp($2 / 1000.0) + INTERVAL '5 seconds', 5, 20)`,
      [f.id, start],
    );
    const w = await change(staff.email, () =>
      api.http
        .post(`/api/v1/furnaces/${f.id}/unassigned/attach`)
        .set(auth(staff.token))
        .send({
          research_id: test.id,
          from: new Date(start).toISOString(),
          to: new Date(start + 3600_000).toISOString(),
        }),
    );
    expect(one(w.entries, 'reading')).toMatchObject({
      action: 'attach',
      research_id: test.id,
      entity_id: f.id,
      before: null,
      after: { furnace_id: f.id, attached: 1, skipped: 0 },
    });
    return w;
  },
  'FurnacesController.issueDaqCredential': async () => {
    const f = ok(
      await api.http.post('/api/v1/furnaces').set(auth(admin)).send({ name: 'Piec z DAQ', code: 'audit-daq' }),
      'furnace',
    ).body;
    const w = await change(SUPERUSER.email, () =>
      api.http.post(`/api/v1/furnaces/${f.id}/daq-credential`).set(auth(admin)),
    );
    expect(one(w.entries, 'furnace')).toMatchObject({
      action: 'daq-credential',
      entity_id: f.id,
      before: null,
      after: { daq_username: 'daq-audit-daq', daq_credential_issued_at: w.res.body.issued_at },
    });
    // The password it answered is in no entry.
    expect(JSON.stringify(w.entries)).not.toContain(w.res.body.password);
    return w;
  },
  'AlarmsController.acknowledge': async () => {
    const research = await createResearch(api, staff.token);
    const [alarm] = (await api.dataSource.query(
      `INSERT INTO alarm (research_id, kind, subject, details, next_notify_at) VALUES ($1, 'silence', '', '{}', now()) RETURNING id`,
      [research.id],
    )) as { id: string }[];
    const w = await change(staff.email, () =>
      api.http.post(`/api/v1/alarms/${alarm!.id}/acknowledge`).set(auth(staff.token)),
    );
    expect(one(w.entries, 'alarm')).toMatchObject({
      action: 'acknowledge',
      research_id: research.id,
      entity_id: alarm!.id,
      before: { kind: 'silence', acknowledged_by: null },
      after: { kind: 'silence', acknowledged_by: staff.email },
    });
    return w;
  },
  'AuthController.reset': async () => {
    const target = await accountBy();
    const html = ok(
      await api.http.post(`/api/v1/password-recovery-html-content/${target.email}`).set(auth(admin)),
      'recovery e-mail',
    );
    const token = new URL(
      /http:\/\/dashboard\.test\/reset-password\?token=[^"\s<]+/.exec(html.text)![0],
    ).searchParams.get('token')!;
    const w = await change(target.email, () =>
      api.http.post('/api/v1/reset-password/').send({ token, new_password: 'reset-to-this-one-1' }),
    );
    expect(one(w.entries, 'user')).toMatchObject({
      action: 'password',
      entity_id: target.id,
      after: { email: target.email },
    });
    expect(JSON.stringify(w.entries)).not.toContain(token);
    return w;
  },
};

describe('the audit trail covers every change', () => {
  let routes: RouteRule[];
  beforeAll(() => {
    routes = listRouteRules(api.app).filter((r) => CHANGING.has(r.method));
  });
  const declared = (route: string) => {
    const audit = routes.find((r) => r.route === route)?.audit;
    return audit && 'entities' in audit ? [...audit.entities].sort() : [];
  };

  it('has every route that changes something say what it audits, or why it audits nothing', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !r.audit).map((r) => `${r.method} ${r.paths.join(' ')} (${r.route})`)).toEqual([]);
  });

  it('calls every audited route here', () => {
    const audited = routes.filter((r) => r.audit && 'entities' in r.audit).map((r) => r.route);
    expect(Object.keys(CASES).sort()).toEqual([...audited].sort());
  });

  it.each(Object.keys(CASES))('%s writes entries of what it declares, by who made the change', async (route) => {
    const { actor, entries } = await CASES[route]!();
    expect([...new Set(entries.map((e) => e.entity))].sort()).toEqual(declared(route));
    expect(entries.map((e) => e.actor)).toEqual(entries.map(() => actor));
    for (const e of entries) expect(Date.now() - Date.parse(e.at)).toBeLessThan(60_000);
  });
});
