// The test's life and its issued documents (docs/behaviour.md, "The permanent record"), through the HTTP API:
// every state change and every refusal, the freeze of an approved test's record on every route that changes it,
// the revisions' documents byte for byte, and the raw data's hash before and after a reading is altered in SQL.
import { createHash } from 'node:crypto';
import { DiscoveryService } from '@nestjs/core';
import type { Response, Test } from 'supertest';
import { login, SUPERUSER } from '@furnace/testing';
import { listRouteRules } from '../src/core/access-rules.check';
import { type FreezeDeclaration, RECORD_FREEZE } from '../src/review/record-freeze';
import { ReviewRepository } from '../src/review/review.repository';
import {
  addClient,
  createResearch,
  insertFrame,
  SPECIMEN_PNG,
  uploadConfig,
  VALID_CONFIG,
  viewerToken,
} from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';
import { pdfPages } from './pdf';

const FROZEN = 'the test is approved (revision 1): a superuser must reopen it first';
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const HOUR = 3600_000;

/** Reads a response body as bytes whatever its type. */
function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/**
 * Frames whose values a float4 holds exactly, so that the lines the hash covers can be written here from the
 * definition in docs/behaviour.md without leaning on the code that computes it.
 */
const FRAMES = [
  { time: -10, pk: 20, pressure: null, radiance: null, tc: [20, 21.5, null], faults: null },
  { time: 0, pk: 20.5, pressure: 12.25, radiance: 0, tc: [20, 21.5, 22], faults: null },
  { time: 60, pk: 349.75, pressure: 14.5, radiance: 0.5, tc: [24.5, null, 23], faults: [2] },
  { time: 120, pk: 465.25, pressure: 15, radiance: 1.25, tc: [31, 30.5, 26.75], faults: null },
];
const line = (f: (typeof FRAMES)[number]) =>
  [
    f.time,
    f.pk,
    f.pressure ?? '',
    f.radiance ?? '',
    `{${f.tc.map((v) => (v === null ? 'NULL' : v)).join(',')}}`,
    f.faults ? `{${f.faults.join(',')}}` : '',
  ].join(';');
const EXPECTED_HASH = sha256(FRAMES.map((f) => `${line(f)}\n`).join(''));

let api: TestApi;
let admin: string;
let reviewer: { email: string; token: string };
let approver: { email: string; token: string };

beforeAll(async () => {
  api = await startTestApi({ BRAND_NAME: 'Laboratorium Badań Ogniowych' });
  admin = await login(api, SUPERUSER.email, SUPERUSER.password);
  reviewer = await signUpUser(api);
  approver = await signUpUser(api);
});
afterAll(() => api?.close());

const research = (id: string, token = reviewer.token) => api.http.get(`/api/v1/research/${id}`).set(auth(token));
const act = (id: string, step: 'review' | 'approve' | 'reopen', token: string | null, body: object = {}) => {
  const req = api.http.post(`/api/v1/research/${id}/${step}`).send(body);
  return token ? req.set(auth(token)) : req;
};
const pdf = (id: string, path: string, token = reviewer.token) =>
  api.http
    .get(`/api/v1/research/${id}/${path}`)
    .set(auth(token))
    .buffer(true)
    .parse(binary as never);

/** A research whose schedule has ended, with the frames above and a thermocouple config. */
async function endedResearch(name = `Drzwi ${Date.now().toString(36)}`): Promise<string> {
  const now = Date.now();
  const id = (
    await createResearch(api, reviewer.token, {
      name,
      start_at: new Date(now - 3 * HOUR).toISOString(),
      end_at: new Date(now - HOUR).toISOString(),
      is_pressure: true,
    })
  ).id;
  expect((await uploadConfig(api, reviewer.token, id)).status).toBe(200);
  for (const f of FRAMES) {
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, pk, pressure, radiance, thermocouples, faults)
       SELECT $1, $2, r.start_at + $2 * INTERVAL '1 second', $3, $4, $5, $6::real[], $7::smallint[] FROM research r WHERE r.id = $1`,
      [
        id,
        f.time,
        f.pk,
        f.pressure,
        f.radiance,
        `{${f.tc.map((v) => (v === null ? 'NULL' : v)).join(',')}}`,
        f.faults ? `{${f.faults.join(',')}}` : null,
      ],
    );
  }
  return id;
}

/** Reviewed by `reviewer`, approved by `approver`. */
async function approved(id: string): Promise<void> {
  expect((await act(id, 'review', reviewer.token, { comment: 'Sprawdzone z zapisem z pieca' })).status).toBe(200);
  const res = await act(id, 'approve', approver.token, { comment: 'Zatwierdzam' });
  expect(res.status).toBe(200);
}

const reviewEntries = async (id: string) =>
  (await api.dataSource.query(
    `SELECT actor, action, before, after FROM audit_entry WHERE research_id = $1 AND entity = 'review' ORDER BY id`,
    [id],
  )) as {
    actor: string;
    action: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }[];

describe('the states of a test', () => {
  it('is planned before its start, running from its start or its first frame from ignition, ended after its end or a test_stopped observation', async () => {
    const now = Date.now();
    const planned = (
      await createResearch(api, reviewer.token, {
        start_at: new Date(now + HOUR).toISOString(),
        end_at: new Date(now + 3 * HOUR).toISOString(),
      })
    ).id;
    expect((await research(planned)).body).toMatchObject({
      state: 'planned',
      approved_revision: null,
      reviewed_by: null,
      approved_by: null,
    });
    // The DAQ decides when the furnace burns: a frame from ignition on, before the scheduled start.
    await insertFrame(api, planned, -5, { pk: 20 });
    expect((await research(planned)).body.state).toBe('planned');
    await insertFrame(api, planned, 0, { pk: 20 });
    expect((await research(planned)).body.state).toBe('running');

    const running = (await createResearch(api, reviewer.token)).id;
    expect((await research(running)).body.state).toBe('running');
    const stopped = await api.http
      .post(`/api/v1/research/${running}/observations`)
      .set(auth(reviewer.token))
      .send({ time: 30, kind: 'test_stopped' });
    expect(stopped.status).toBe(200);
    expect((await research(running)).body.state).toBe('ended');

    const ended = await endedResearch();
    expect((await research(ended)).body.state).toBe('ended');
    // The list says the same as the research.
    const list = (await api.http.get('/api/v1/research/').set(auth(reviewer.token))).body.data as {
      id: string;
      state: string;
    }[];
    expect(
      Object.fromEntries(list.filter((r) => [planned, running, ended].includes(r.id)).map((r) => [r.id, r.state])),
    ).toEqual({
      [planned]: 'running',
      [running]: 'ended',
      [ended]: 'ended',
    });
  });

  it('is reviewed only once it has ended, by staff, with who, when and the comment kept and audited', async () => {
    const running = (await createResearch(api, reviewer.token)).id;
    const early = await act(running, 'review', reviewer.token);
    expect(early.status).toBe(409);
    expect(early.body.detail).toBe(
      'the test has not ended (it is running): it is reviewed once its scheduled end has passed or a test_stopped observation is recorded',
    );

    const id = await endedResearch();
    const code = (await addClient(api, reviewer.token, id, 'klient@example.com')).id;
    const viewer = await viewerToken(api, id, code);
    expect((await act(id, 'review', null)).status).toBe(401);
    expect((await act(id, 'review', viewer)).status).toBe(403);
    expect((await act('00000000-0000-4000-8000-000000000000', 'review', reviewer.token)).status).toBe(404);
    expect((await act(id, 'review', reviewer.token, { comment: 'x'.repeat(2001) })).status).toBe(422);

    const before = Date.now();
    const res = await act(id, 'review', reviewer.token, { comment: '  Sprawdzone  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'reviewed',
      reviewed_by: reviewer.email,
      review_comment: 'Sprawdzone',
      approved_revision: null,
    });
    expect(Date.parse(res.body.reviewed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await research(id)).body.state).toBe('reviewed');
    // A client sees the state, not who.
    expect((await research(id, viewer)).body).toMatchObject({
      state: 'reviewed',
      reviewed_by: null,
      review_comment: null,
    });

    const again = await act(id, 'review', approver.token);
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain(`the test is already reviewed, by ${reviewer.email}`);

    expect(await reviewEntries(id)).toEqual([
      {
        actor: reviewer.email,
        action: 'review',
        before: null,
        after: expect.objectContaining({ reviewed_by: reviewer.email, review_comment: 'Sprawdzone' }),
      },
    ]);
  });

  it('is approved only once reviewed, never by its reviewer, and an approval is not repeated', async () => {
    const id = await endedResearch();
    const unreviewed = await act(id, 'approve', approver.token);
    expect(unreviewed.status).toBe(409);
    expect(unreviewed.body.detail).toBe('the test must be reviewed before it is approved: it is ended');

    expect((await act(id, 'review', reviewer.token)).status).toBe(200);
    const self = await act(id, 'approve', reviewer.token);
    expect(self.status).toBe(409);
    expect(self.body.detail).toBe(
      `the approver must not be the reviewer: ${reviewer.email} reviewed this test, so another member of staff approves it`,
    );

    const res = await act(id, 'approve', approver.token, { comment: 'Zgodne z normą' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'approved',
      approved_revision: 1,
      approved_by: approver.email,
      approval_comment: 'Zgodne z normą',
      reviewed_by: reviewer.email,
    });

    const twice = await act(id, 'approve', admin);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe(FROZEN);
    const review = await act(id, 'review', admin);
    expect(review.status).toBe(409);
    expect(review.body.detail).toBe(FROZEN);

    const revisions = (await api.http.get(`/api/v1/research/${id}/revisions`).set(auth(reviewer.token))).body.data;
    expect(revisions).toEqual([
      expect.objectContaining({
        revision: 1,
        reviewed_by: reviewer.email,
        approved_by: approver.email,
        approval_comment: 'Zgodne z normą',
        data_sha256: EXPECTED_HASH,
        readings: 4,
      }),
    ]);
    expect(revisions[0].documents.map((d: { kind: string; lang: string }) => `${d.kind}.${d.lang}`).sort()).toEqual([
      'classification.en',
      'classification.pl',
      'report.en',
      'report.pl',
    ]);
    expect((await reviewEntries(id)).map((e) => [e.actor, e.action])).toEqual([
      [reviewer.email, 'review'],
      [approver.email, 'approve'],
    ]);
    expect((await reviewEntries(id))[1]!.after).toMatchObject({
      revision: 1,
      approved_by: approver.email,
      data_sha256: EXPECTED_HASH,
      readings: 4,
    });
  });

  it('is reopened by a superuser only, with a reason, back to ended; the next approval is revision 2', async () => {
    const id = await endedResearch();
    const notApproved = await act(id, 'reopen', admin, { reason: 'Poprawka' });
    expect(notApproved.status).toBe(409);
    expect(notApproved.body.detail).toBe('only an approved test is reopened: this one is ended');
    await approved(id);

    expect((await act(id, 'reopen', reviewer.token, { reason: 'Poprawka' })).status).toBe(403);
    const noReason = await act(id, 'reopen', admin, { reason: '   ' });
    expect(noReason.status).toBe(422);
    expect(JSON.stringify(noReason.body.detail)).toContain('reason must not be empty');

    const res = await act(id, 'reopen', admin, { reason: 'Błędny numer sprawozdania' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'ended',
      approved_revision: null,
      reviewed_by: null,
      approved_by: null,
      reopened_by: SUPERUSER.email,
      reopen_reason: 'Błędny numer sprawozdania',
    });
    // Open again: a change goes through.
    expect(
      (await api.http.put(`/api/v1/research/${id}`).set(auth(reviewer.token)).send({ report_number: 'LAB/2026/018' }))
        .status,
    ).toBe(200);

    await approved(id);
    expect((await research(id)).body).toMatchObject({ state: 'approved', approved_revision: 2 });
    const revisions = (await api.http.get(`/api/v1/research/${id}/revisions`).set(auth(reviewer.token))).body.data as {
      revision: number;
    }[];
    expect(revisions.map((r) => r.revision)).toEqual([1, 2]);
    const entries = await reviewEntries(id);
    expect(entries.map((e) => [e.actor, e.action])).toEqual([
      [reviewer.email, 'review'],
      [approver.email, 'approve'],
      [SUPERUSER.email, 'reopen'],
      [reviewer.email, 'review'],
      [approver.email, 'approve'],
    ]);
    expect(entries[2]).toMatchObject({
      before: { revision: 1, approved_by: approver.email },
      after: { reason: 'Błędny numer sprawozdania' },
    });
  });

  it('withdraws a review when the record changes before the approval (audited), so an approval approves what was reviewed', async () => {
    const id = await endedResearch();
    expect((await act(id, 'review', reviewer.token)).status).toBe(200);
    expect(
      (await api.http.put(`/api/v1/research/${id}`).set(auth(approver.token)).send({ deviations: 'brak' })).status,
    ).toBe(200);
    expect((await research(id)).body).toMatchObject({ state: 'ended', reviewed_by: null });
    const withdrawn = (await reviewEntries(id)).at(-1)!;
    expect(withdrawn).toMatchObject({
      actor: approver.email,
      action: 'withdraw',
      before: { reviewed_by: reviewer.email },
      after: null,
    });
    const res = await act(id, 'approve', approver.token);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('the test must be reviewed before it is approved: it is ended');
  });
});

describe('an approved test refuses every change to its record', () => {
  /** The triggers of migration PermanentRecord, on or off. */
  const triggers = async (how: 'ENABLE' | 'DISABLE') => {
    for (const table of [
      'research',
      'observation',
      'thermo_exclusion',
      'research_drawing',
      'thermo_config',
      'research_url',
      'thermo_marker',
    ]) {
      await api.dataSource.query(
        `ALTER TABLE "${table}" ${how} TRIGGER ${table === 'research' ? 'research_frozen_row' : `${table}_frozen`}`,
      );
    }
  };
  let id: string;
  const ids: Record<string, string> = {};
  let before: string;

  /** Everything of the research's record that its routes show. */
  async function record(): Promise<string> {
    const get = async (path: string) =>
      (await api.http.get(`/api/v1/research/${id}${path}`).set(auth(reviewer.token))).body;
    const [research, observations, exclusions, configs, drawings, urls, markers] = await Promise.all(
      ['', '/observations', '/exclusions', '/thermo', '/drawings', '/urls', '/thermo/coords'].map(get),
    );
    return JSON.stringify({ research, observations, exclusions, configs, drawings, urls, markers });
  }

  beforeAll(async () => {
    id = await endedResearch();
    ids.research = id;
    ids['thermo-config'] = (
      await api.http.get(`/api/v1/research/${id}/thermo`).set(auth(reviewer.token))
    ).body.data[0].id;
    const staff = auth(reviewer.token);
    ids.observation = (
      await api.http
        .post(`/api/v1/research/${id}/observations`)
        .set(staff)
        .send({ time: 60, kind: 'note', note: 'Pęknięcie' })
    ).body.id;
    ids.exclusion = (
      await api.http
        .post(`/api/v1/research/${id}/exclusions`)
        .set(staff)
        .send({ thermo_id: 2, from_time: 60, reason: 'odpadła' })
    ).body.id;
    ids.url = (
      await api.http.post('/api/v1/research/urls').set(staff).send({ research_id: id, url: 'https://cam.example/1' })
    ).body.id;
    ids.drawing = (
      await api.http.post(`/api/v1/research/${id}/drawings`).set(staff).attach('file', SPECIMEN_PNG, 'widok.png')
    ).body.id;
    for (const [part, value] of Object.entries(ids))
      expect([part, value]).toEqual([part, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    await approved(id);
    before = await record();
    // The API's own check first, alone: the database's triggers (the last line, tested below) are off meanwhile.
    await triggers('DISABLE');
  });
  afterAll(() => triggers('ENABLE'));

  /** Each route that changes a research's record, called as staff would (superusers for what only they may do). */
  const CASES: Record<string, () => Test> = {
    'ResearchController.update': () =>
      api.http.put(`/api/v1/research/${id}`).set(auth(reviewer.token)).send({ name: 'Inna nazwa', t0_override: 21 }),
    'ResearchController.createUrl': () =>
      api.http
        .post('/api/v1/research/urls')
        .set(auth(reviewer.token))
        .send({ research_id: id, url: 'https://cam.example/2' }),
    'ResearchController.updateUrl': () =>
      api.http.put(`/api/v1/research/urls/${ids.url}`).set(auth(reviewer.token)).send({ url: 'https://cam.example/3' }),
    'ResearchController.deleteUrl': () => api.http.delete(`/api/v1/research/urls/${ids.url}`).set(auth(reviewer.token)),
    'CriteriaController.createObservation': () =>
      api.http
        .post(`/api/v1/research/${id}/observations`)
        .set(auth(reviewer.token))
        .send({ time: 90, kind: 'test_stopped' }),
    'CriteriaController.updateObservation': () =>
      api.http
        .patch(`/api/v1/research/observations/${ids.observation}`)
        .set(auth(reviewer.token))
        .send({ note: 'Inna' }),
    'CriteriaController.deleteObservation': () =>
      api.http.delete(`/api/v1/research/observations/${ids.observation}`).set(auth(reviewer.token)),
    'CriteriaController.createExclusion': () =>
      api.http
        .post(`/api/v1/research/${id}/exclusions`)
        .set(auth(reviewer.token))
        .send({ thermo_id: 1, from_time: 0, reason: 'x' }),
    'CriteriaController.deleteExclusion': () =>
      api.http.delete(`/api/v1/research/exclusions/${ids.exclusion}`).set(auth(reviewer.token)),
    'DrawingsController.upload': () =>
      api.http
        .post(`/api/v1/research/${id}/drawings`)
        .set(auth(reviewer.token))
        .attach('file', SPECIMEN_PNG, 'drugi.png'),
    'DrawingsController.delete': () =>
      api.http.delete(`/api/v1/research/${id}/drawings/${ids.drawing}`).set(auth(reviewer.token)),
    'ThermoController.create': () =>
      api.http
        .post('/api/v1/research/thermo')
        .set(auth(reviewer.token))
        .field('research_id', id)
        .attach('image_file', SPECIMEN_PNG, 'specimen.png')
        .attach('config_file', Buffer.from(VALID_CONFIG), 'config.txt'),
    'ThermoController.delete': () =>
      api.http.delete(`/api/v1/research/thermo/${ids['thermo-config']}`).set(auth(reviewer.token)),
    'ThermoController.replaceConfig': () =>
      api.http
        .put(`/api/v1/research/thermo/${ids['thermo-config']}/config`)
        .set(auth(reviewer.token))
        .attach('config_file', Buffer.from(VALID_CONFIG), 'config.txt'),
  };

  /** Every route that changes something under /research, with what it says of the freeze. */
  function researchRoutes(): {
    route: string;
    method: string;
    paths: string[];
    declaration: FreezeDeclaration | undefined;
  }[] {
    const handlers = new Map<string, unknown>();
    for (const wrapper of api.app.get(DiscoveryService).getControllers()) {
      const proto = wrapper.metatype?.prototype as Record<string, unknown> | undefined;
      if (!proto) continue;
      for (const name of Object.getOwnPropertyNames(proto))
        handlers.set(`${wrapper.metatype!.name}.${name}`, proto[name]);
    }
    return listRouteRules(api.app)
      .filter((r) => CHANGING.has(r.method) && r.paths.some((p) => p.startsWith('/api/v1/research')))
      .map((r) => ({
        ...r,
        declaration: Reflect.getMetadata(RECORD_FREEZE, handlers.get(r.route) as object) as
          FreezeDeclaration | undefined,
      }));
  }

  it('has every route that changes something of a research say which research it freezes, or why it is not frozen', () => {
    const routes = researchRoutes();
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !r.declaration).map((r) => `${r.method} ${r.paths.join(' ')} (${r.route})`)).toEqual(
      [],
    );
    const frozen = routes.filter((r) => r.declaration && 'target' in r.declaration).map((r) => r.route);
    // Each frozen route is called below: a new one fails here until it has its case.
    expect(Object.keys(CASES).sort()).toEqual(frozen.sort());
  });

  it.each(Object.keys(CASES))('%s answers 409 saying why, and changes nothing', async (route) => {
    const res = await CASES[route]!();
    expect([res.status, res.body.detail]).toEqual([409, FROZEN]);
    expect(await record()).toBe(before);
  });

  it('refuses a change in the database itself too, for the moment between the check and the write', async () => {
    await triggers('ENABLE');
    await expect(
      api.dataSource.query(`INSERT INTO observation (research_id, "time", kind) VALUES ($1, 5, 'note')`, [id]),
    ).rejects.toThrow(FROZEN);
    await expect(api.dataSource.query(`UPDATE research SET name = 'x' WHERE id = $1`, [id])).rejects.toThrow(FROZEN);
    await expect(
      api.dataSource.query(`DELETE FROM thermo_marker WHERE config_id = $1`, [ids['thermo-config']]),
    ).rejects.toThrow(FROZEN);
    expect(await record()).toBe(before);
  });

  it('is not deleted: the delete says to archive it instead', async () => {
    const res = await api.http.delete(`/api/v1/research/${id}`).set(auth(admin));
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('approved');
    expect(await record()).toBe(before);
  });

  it('still lets staff manage who is invited and open the live stream: access, not the record', async () => {
    const added = await addClient(api, reviewer.token, id, 'pozniej@example.com');
    expect((await api.http.delete(`/api/v1/research/emails/${added.id}`).set(auth(reviewer.token))).status).toBe(200);
    expect((await api.http.post(`/api/v1/research/${id}/stream-ticket`).set(auth(reviewer.token))).status).toBe(200);
    expect(await record()).toBe(before);
  });
});

describe('the documents issued with a revision', () => {
  let id: string;
  let issued: Record<string, Buffer>;
  const NAME = 'Ściana EI 60 — dokumenty';

  beforeAll(async () => {
    id = await endedResearch(NAME);
    await approved(id);
    issued = {};
    for (const doc of ['report.pdf', 'classification.pdf']) {
      for (const lang of ['pl', 'en']) {
        const res = await pdf(id, `${doc}?revision=1&lang=${lang}`);
        expect(res.status).toBe(200);
        issued[`${doc}.${lang}`] = res.body as Buffer;
      }
    }
  });

  it('returns the same bytes every time, with or without ?revision while the test is approved, and as the revisions list them', async () => {
    const revision = (await api.http.get(`/api/v1/research/${id}/revisions`).set(auth(reviewer.token))).body.data[0];
    for (const [key, bytes] of Object.entries(issued)) {
      const [doc, lang] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
      const again = await pdf(id, `${doc}?revision=1&lang=${lang}`);
      expect(Buffer.compare(again.body as Buffer, bytes)).toBe(0);
      const latest = await pdf(id, `${doc}?lang=${lang}`);
      expect(latest.headers['x-revision']).toBe('1');
      expect(Buffer.compare(latest.body as Buffer, bytes)).toBe(0);
      const listed = revision.documents.find(
        (d: { kind: string; lang: string }) => `${d.kind}.pdf` === doc && d.lang === lang,
      );
      expect(listed).toMatchObject({ sha256: sha256(bytes), size: bytes.length });
    }
    const res = await pdf(id, 'report.pdf?revision=1');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent(`raport-${NAME}-rev1.pdf`));
  });

  it("states on every page the revision, who reviewed and approved it and when, and the raw data's SHA-256", async () => {
    for (const key of ['report.pdf.pl', 'classification.pdf.pl']) {
      const pages = await pdfPages(issued[key]!);
      for (const page of pages) {
        expect(page).toMatch(
          new RegExp(
            `Rewizja 1 · sprawdzenie: ${reviewer.email}, \\d\\d\\.\\d\\d\\.\\d{4}, \\d\\d:\\d\\d:\\d\\d · zatwierdzenie: ${approver.email}, `,
          ),
        );
        expect(page).toContain(`SHA-256 surowych danych badania: ${EXPECTED_HASH}`);
      }
    }
    expect((await pdfPages(issued['report.pdf.pl']!))[0]).toContain('Stan badania zatwierdzone, rewizja 1');
    const en = await pdfPages(issued['report.pdf.en']!);
    expect(en[0]).toContain(`Revision 1 · reviewed by ${reviewer.email}`);
    expect(en[0]).toContain(`SHA-256 of the test's raw data: ${EXPECTED_HASH}`);
  });

  it('keeps revision 1 byte for byte after a reopening and a change; a document made now shows the change', async () => {
    expect((await act(id, 'reopen', admin, { reason: 'Zmiana nazwy' })).status).toBe(200);
    expect(
      (
        await api.http
          .put(`/api/v1/research/${id}`)
          .set(auth(reviewer.token))
          .send({ name: `${NAME} (poprawione)` })
      ).status,
    ).toBe(200);
    for (const [key, bytes] of Object.entries(issued)) {
      const [doc, lang] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
      const again = await pdf(id, `${doc}?revision=1&lang=${lang}`);
      expect(Buffer.compare(again.body as Buffer, bytes)).toBe(0);
    }
    // Not approved now: without ?revision the report is made from the research as it is.
    const now = await pdf(id, 'report.pdf');
    expect(now.headers['x-revision']).toBeUndefined();
    const pages = await pdfPages(now.body as Buffer);
    expect(pages[0]).toContain(`${NAME} (poprawione)`);
    expect(pages[0]).toContain('Stan badania zakończone');
    expect(pages.join('\n')).not.toContain('Rewizja');
  });

  it('answers 404 for a revision the test does not have, 422 for a bad one, and keeps the documents from clients', async () => {
    expect((await pdf(id, 'report.pdf?revision=7')).status).toBe(404);
    expect((await pdf(id, 'classification.pdf?revision=0')).status).toBe(422);
    expect((await pdf(id, 'report.pdf?revision=x')).status).toBe(422);
    const viewer = await viewerToken(api, id, (await addClient(api, reviewer.token, id, 'widz@example.com')).id);
    expect((await pdf(id, 'report.pdf?revision=1', viewer)).status).toBe(403);
    expect((await api.http.get(`/api/v1/research/${id}/revisions`).set(auth(viewer))).status).toBe(403);
    expect((await api.http.get(`/api/v1/research/${id}/verify`).set(auth(viewer))).status).toBe(403);
  });
});

describe('GET …/verify', () => {
  it('hashes the stored readings again: each revision matches until a reading is altered behind the API', async () => {
    const id = await endedResearch();
    await approved(id);
    const first = await api.http.get(`/api/v1/research/${id}/verify`).set(auth(reviewer.token));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      data_sha256: EXPECTED_HASH,
      readings: 4,
      revisions: [{ revision: 1, data_sha256: EXPECTED_HASH, readings: 4, matches: true }],
    });

    await api.dataSource.query(`UPDATE reading SET pk = 349.5 WHERE research_id = $1 AND "time" = 60`, [id]);
    const altered = await api.http.get(`/api/v1/research/${id}/verify`).set(auth(reviewer.token));
    const tampered = sha256(FRAMES.map((f) => `${line(f.time === 60 ? { ...f, pk: 349.5 } : f)}\n`).join(''));
    expect(altered.body).toMatchObject({
      data_sha256: tampered,
      readings: 4,
      revisions: [{ revision: 1, data_sha256: EXPECTED_HASH, matches: false }],
    });

    // Put back: the hash is of the values, so it matches again.
    await api.dataSource.query(`UPDATE reading SET pk = 349.75 WHERE research_id = $1 AND "time" = 60`, [id]);
    expect(
      (await api.http.get(`/api/v1/research/${id}/verify`).set(auth(reviewer.token))).body.revisions[0].matches,
    ).toBe(true);
    expect(
      (await api.http.get('/api/v1/research/00000000-0000-4000-8000-000000000000/verify').set(auth(reviewer.token)))
        .status,
    ).toBe(404);
  });

  it('hashes a test of many pages as one: the same hash whatever the page size', async () => {
    const id = await endedResearch();
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, pk, thermocouples)
       SELECT $1, t, r.start_at + t * INTERVAL '1 second', 500 + (t % 7) * 0.25, CASE WHEN t % 3 = 0 THEN '{40,NULL}'::real[] ELSE '{40,41.5}'::real[] END
       FROM research r, generate_series(180, 12179) AS t WHERE r.id = $1`,
      [id],
    );
    const repo = api.app.get(ReviewRepository);
    const whole = await repo.rawDataHash(id, { sized: { min: 100_000, max: 100_000 } });
    expect(whole.readings).toBe(4 + 12_000);
    expect(await repo.rawDataHash(id, { sized: { min: 997, max: 997 } })).toEqual(whole);
    // Pages sized to how long each statement took: the same hash.
    expect(await repo.rawDataHash(id, { sized: { min: 10, max: 5000 } })).toEqual(whole);
    expect((await api.http.get(`/api/v1/research/${id}/verify`).set(auth(reviewer.token))).body).toMatchObject({
      data_sha256: whole.sha256,
      readings: 12_004,
      revisions: [],
    });
  });

  it('hashes the readings stored when it began, in statements of their own: a frame after them is left out, one stored among them meanwhile fails it (409)', async () => {
    const id = await endedResearch();
    const repo = api.app.get(ReviewRepository);
    const short = repo.short.bind(repo);
    const store = (time: number) =>
      api.dataSource.query(
        `INSERT INTO reading (research_id, "time", ts, pk, thermocouples)
         SELECT $1, $2, r.start_at + $2 * INTERVAL '1 second', 500, '{40,41,42}'::real[] FROM research r WHERE r.id = $1`,
        [id, time],
      );
    /**
     * GET …/verify with a frame at `time` stored just before its `nth` short statement: its statements are where the
     * read begins (1), the one page of these few readings (2) and the count at its end (3).
     */
    const verifyStoring = async (time: number, nth: number) => {
      let calls = 0;
      const spy = jest.spyOn(repo, 'short').mockImplementation(async (work) => {
        if ((calls += 1) === nth) await store(time);
        return short(work);
      });
      try {
        return await api.http.get(`/api/v1/research/${id}/verify`).set(auth(reviewer.token));
      } finally {
        spy.mockRestore();
        expect(calls).toBe(3);
      }
    };

    // A frame after the last one stored when the hash began, stored before its page is read: left out, the hash is of
    // the four as they were.
    const after = await verifyStoring(180, 2);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ data_sha256: EXPECTED_HASH, readings: 4 });

    // A late frame among those it read, stored after the page was read: no hash of two moments.
    const among = await verifyStoring(30, 3);
    expect(among.status).toBe(409);
    expect(among.body.detail).toBe(
      "the test's readings changed while they were hashed: 5 read up to time 180, 6 stored there now; try again",
    );

    // Asked again: all six.
    const again = await api.http.get(`/api/v1/research/${id}/verify`).set(auth(reviewer.token));
    expect(again.body).toMatchObject({ readings: 6 });
  });
});
