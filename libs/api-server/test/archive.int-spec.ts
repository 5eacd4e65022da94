// The archive of a test's whole record (docs/behaviour.md, "The archive"): an approved test exported and imported
// into another database gives the same criteria and the same stored PDFs byte for byte; a tampered archive is
// refused naming what does not match, and leaves nothing; only a superuser imports.
import { createHash } from 'node:crypto';
import ZipStream from 'zip-stream';
import type { Response } from 'supertest';
import { comparable, login, SUPERUSER } from '@furnace/testing';
import { importHooks } from '../src/archive/archive-import';
import { ArchiveService } from '../src/archive/archive.service';
import { entryBytes, zipEntries } from '../src/archive/zip-reader';
import { addClient, createResearch, SPECIMEN_PNG, uploadConfig, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

const HOUR = 3600_000;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Reads a response body as bytes whatever its type. */
function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

let source: TestApi;
let target: TestApi;
let reviewer: { email: string; token: string };
let approver: { email: string; token: string };
let targetAdmin: string;
let researchId: string;
let archive: Buffer;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestApi(), startTestApi()]);
  reviewer = await signUpUser(source);
  approver = await signUpUser(source);
  targetAdmin = await login(target, SUPERUSER.email, SUPERUSER.password);

  const now = Date.now();
  researchId = (
    await createResearch(source, reviewer.token, {
      name: 'Drzwi EI 60 – archiwum',
      start_at: new Date(now - 3 * HOUR).toISOString(),
      end_at: new Date(now - HOUR).toISOString(),
      is_pressure: true,
    })
  ).id;
  expect((await uploadConfig(source, reviewer.token, researchId)).status).toBe(200);
  // Readings of every kind the hash covers: absent values, a faulted channel, fractions a float4 rounds.
  for (let i = -2; i <= 60; i += 1) {
    const t = i * 15;
    await source.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, daq_ts, pk, pressure, radiance, thermocouples, faults, received_at)
       SELECT $1, $2, r.start_at + $2 * INTERVAL '1 second', r.start_at + $2 * INTERVAL '1 second', $3, $4, $5, $6::real[], $7::smallint[], now() FROM research r WHERE r.id = $1`,
      [
        researchId,
        t,
        20 + t * 0.71,
        i % 7 === 0 ? null : 15 + (i % 3) * 0.1,
        i < 0 ? null : i / 30,
        `{${20 + t * 0.1},${i === 30 ? 'NULL' : 21 + t * 0.13},${22.3 + t * 0.09}}`,
        i === 30 ? '{2}' : null,
      ],
    );
  }
  const post = (path: string, body: object) =>
    source.http.post(`/api/v1/research/${researchId}/${path}`).set(auth(reviewer.token)).send(body);
  expect(
    (await post('observations', { time: 120, kind: 'note', note: 'Dym nad drzwiami', visible_to_clients: true }))
      .status,
  ).toBe(200);
  expect(
    (await post('observations', { time: 600, kind: 'sustained_flaming', note: 'Płomień przy zawiasie' })).status,
  ).toBe(200);
  expect((await post('exclusions', { thermo_id: 3, from_time: 300, reason: 'odpadła' })).status).toBe(200);
  expect(
    (
      await source.http
        .post(`/api/v1/research/${researchId}/drawings`)
        .set(auth(reviewer.token))
        .attach('file', SPECIMEN_PNG, 'przekrój.png')
    ).status,
  ).toBe(200);
  expect((await post('review', { comment: 'Sprawdzone' })).status).toBe(200);
  expect(
    (
      await source.http
        .post(`/api/v1/research/${researchId}/approve`)
        .set(auth(approver.token))
        .send({ comment: 'Zatwierdzam' })
    ).status,
  ).toBe(200);

  const res = await source.http
    .get(`/api/v1/research/${researchId}/archive.zip`)
    .set(auth(reviewer.token))
    .buffer(true)
    .parse(binary as never);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  archive = res.body as Buffer;
}, 60_000);
afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

/** The archive's files by name. */
function files(zip: Buffer): Map<string, Buffer> {
  const entries = zipEntries(zip);
  return new Map([...entries.values()].map((e) => [e.name, entryBytes(zip, e)]));
}

/** A zip of `contents`, in their order. */
async function pack(contents: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipStream();
  const chunks: Buffer[] = [];
  zip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => zip.on('end', resolve));
  for (const [name, data] of contents)
    await new Promise<void>((resolve, reject) =>
      zip.entry(data, { name }, (error) => (error ? reject(error) : resolve())),
    );
  zip.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** The source test's archive as staff download it. */
const downloadArchive = () =>
  source.http
    .get(`/api/v1/research/${researchId}/archive.zip`)
    .set(auth(reviewer.token))
    .buffer(true)
    .parse(binary as never);
/** How a download ends: its status and whether the zip has a manifest, or the error of a connection cut. */
const exportOutcome = () =>
  downloadArchive().then(
    (res) => ({ status: res.status, manifest: files(res.body as Buffer).has('manifest.json') }),
    (error: Error) => ({ error: error.message }),
  );
const upload = (api: TestApi, token: string, zip: Buffer) =>
  api.http.post('/api/v1/research/import').set(auth(token)).attach('file', zip, 'archiwum.zip');
const researchCount = async (api: TestApi) =>
  Number(((await api.dataSource.query('SELECT count(*) AS n FROM research')) as { n: string }[])[0]!.n);
/** How many rows each table of a test's record holds in `api`'s database, whatever research they belong to. */
async function rowCounts(api: TestApi): Promise<Record<string, number>> {
  const tables = [
    'research',
    'research_import',
    'reading',
    'reading_rollup',
    'thermo_config',
    'thermo_marker',
    'observation',
    'thermo_exclusion',
    'research_drawing',
    'research_revision',
    'research_document',
    'audit_entry',
  ];
  const rows = (await api.dataSource.query(
    tables.map((t) => `SELECT '${t}' AS t, count(*)::int AS n FROM ${t}`).join(' UNION ALL '),
  )) as { t: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}

describe('the archive', () => {
  it("holds the whole record and a manifest with every file's SHA-256 and the raw data's", async () => {
    const contents = files(archive);
    const manifest = JSON.parse(contents.get('manifest.json')!.toString()) as {
      data_sha256: string;
      readings: number;
      files: { name: string; sha256: string; size: number }[];
    };
    const verify = await source.http.get(`/api/v1/research/${researchId}/verify`).set(auth(reviewer.token));
    expect(manifest.data_sha256).toBe(verify.body.data_sha256);
    expect(manifest.readings).toBe(63);
    expect([...contents.keys()].sort()).toEqual([...manifest.files.map((f) => f.name), 'manifest.json'].sort());
    for (const f of manifest.files)
      expect({ name: f.name, sha256: sha256(contents.get(f.name)!), size: contents.get(f.name)!.length }).toEqual(f);
    for (const name of [
      'research.json',
      'thermo_configs.json',
      'observations.json',
      'exclusions.json',
      'drawings.json',
      'revisions.json',
      'documents.json',
      'audit.json',
      'readings.csv',
    ]) {
      expect(contents.has(name)).toBe(true);
    }
    const readings = contents.get('readings.csv')!.toString().split('\n');
    expect(readings[0]).toBe('time;pk;pressure;radiance;thermocouples;faults;ts;daq_ts;received_at');
    expect(readings.find((l) => l.startsWith('450;'))).toMatch(/^450;[^;]*;[^;]*;[^;]*;\{[^}]*,NULL,[^}]*\};\{2\};/);
    const configs = JSON.parse(contents.get('thermo_configs.json')!.toString()) as {
      id: string;
      image_sha256: string;
      markers: { zone: unknown }[];
    }[];
    expect(configs[0]!.markers).toHaveLength(3);
    expect(sha256(contents.get(`thermo_configs/${configs[0]!.id}/image`)!)).toBe(configs[0]!.image_sha256);
    expect(contents.get('documents/1/report-pl.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('is refused to clients and answers 404 for no such test', async () => {
    const code = (await addClient(source, reviewer.token, researchId, 'klient@example.com')).id;
    const viewer = await viewerToken(source, researchId, code);
    expect((await source.http.get(`/api/v1/research/${researchId}/archive.zip`).set(auth(viewer))).status).toBe(403);
    expect((await source.http.get(`/api/v1/research/${researchId}/archive.zip`)).status).toBe(401);
    expect(
      (
        await source.http
          .get('/api/v1/research/00000000-0000-4000-8000-000000000000/archive.zip')
          .set(auth(reviewer.token))
      ).status,
    ).toBe(404);
  });

  it('imports into another database as a new, archived test with the same criteria and the same stored PDFs byte for byte', async () => {
    // The import tells it is alive before every statement: none of them from inside a transaction of its own (on the
    // embedded database that stopped every connection for good; data-source.ts refuses it).
    importHooks.touchMs = 0;
    let res: Response;
    try {
      res = await upload(target, targetAdmin, archive);
    } finally {
      importHooks.touchMs = 10_000;
    }
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    expect(id).not.toBe(researchId);
    expect(res.body).toMatchObject({ source_research_id: researchId, readings: 63 });

    const imported = (await target.http.get(`/api/v1/research/${id}`).set(auth(targetAdmin))).body;
    expect(imported).toMatchObject({
      name: 'Drzwi EI 60 – archiwum',
      state: 'approved',
      approved_revision: 1,
      approved_by: approver.email,
      reviewed_by: reviewer.email,
      archived_by: SUPERUSER.email,
    });
    expect(imported.archived_at).not.toBeNull();

    const criteria = (api: TestApi, rid: string, token: string) =>
      api.http.get(`/api/v1/research/${rid}/criteria`).set(auth(token));
    const [before, after] = await Promise.all([
      criteria(source, researchId, reviewer.token),
      criteria(target, id, targetAdmin),
    ]);
    expect(after.status).toBe(200);
    expect(comparable(after.body)).toEqual(comparable(before.body));

    const verify = await target.http.get(`/api/v1/research/${id}/verify`).set(auth(targetAdmin));
    expect(verify.body.revisions).toEqual([expect.objectContaining({ revision: 1, matches: true })]);
    for (const kind of ['report', 'classification']) {
      for (const lang of ['pl', 'en']) {
        const get = (api: TestApi, rid: string, token: string) =>
          api.http
            .get(`/api/v1/research/${rid}/${kind}.pdf?revision=1&lang=${lang}`)
            .set(auth(token))
            .buffer(true)
            .parse(binary as never);
        const [a, b] = await Promise.all([get(source, researchId, reviewer.token), get(target, id, targetAdmin)]);
        expect(b.status).toBe(200);
        expect((b.body as Buffer).equals(a.body as Buffer)).toBe(true);
      }
    }
    const listed = async (api: TestApi, rid: string, token: string, path: string) =>
      (await api.http.get(`/api/v1/research/${rid}/${path}`).set(auth(token))).body;
    expect((await listed(target, id, targetAdmin, 'observations')).data.map((o: { note: string }) => o.note)).toEqual([
      'Dym nad drzwiami',
      'Płomień przy zawiasie',
    ]);
    expect((await listed(target, id, targetAdmin, 'drawings')).data.map((d: { sha256: string }) => d.sha256)).toEqual(
      (await listed(source, researchId, reviewer.token, 'drawings')).data.map((d: { sha256: string }) => d.sha256),
    );

    // The rollups the import made, a chunk of readings a statement, are what the database's own rebuild makes (sums to
    // the last bits aside: a sum's order is the plan's, as it is for the ingest's fold frame by frame).
    const rounded = (v: unknown): unknown =>
      typeof v === 'number'
        ? Number(v.toPrecision(12))
        : Array.isArray(v)
          ? v.map(rounded)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]))
            : v;
    const rollups = async () =>
      rounded(
        await target.dataSource.query(
          `SELECT (SELECT json_agg(to_jsonb(r) - 'research_id' ORDER BY width, bucket) FROM reading_rollup r WHERE research_id = $1) AS channels,
                (SELECT json_agg(to_jsonb(c) - 'research_id' ORDER BY width, bucket, type_name) FROM reading_rollup_category c WHERE research_id = $1) AS categories`,
          [id],
        ),
      ) as { channels: unknown[]; categories: unknown[] }[];
    const made = await rollups();
    expect(made[0]!.channels.length).toBeGreaterThan(0);
    expect(made[0]!.categories.length).toBeGreaterThan(0);
    expect(await target.dataSource.query('SELECT * FROM rollup_refresh WHERE research_id = $1', [id])).toEqual([]);
    await target.dataSource.query('SELECT reading_rollup_rebuild($1, false)', [id]);
    expect(await rollups()).toEqual(made);

    // The trail: a copy of the test's entries, and the import.
    const trail = (
      await target.http.get(`/api/v1/research/${id}/audit`).query({ per_page: 200 }).set(auth(targetAdmin))
    ).body.data as { action: string; entity: string; actor: string }[];
    const original = JSON.parse(files(archive).get('audit.json')!.toString()) as unknown[];
    expect(trail).toHaveLength(original.length + 1);
    expect(trail[0]).toMatchObject({ entity: 'research', action: 'import', actor: SUPERUSER.email });
    expect(trail.some((e) => e.action === 'approve' && e.actor === approver.email)).toBe(true);
  });

  it('refuses a tampered archive naming what does not match, and writes nothing', async () => {
    const contents = files(archive);
    const before = await researchCount(target);
    const refused = async (zip: Buffer) => {
      const res = await upload(target, targetAdmin, zip);
      expect(res.status).toBe(422);
      return res.body.detail as string;
    };

    // One reading changed.
    const readings = contents.get('readings.csv')!.toString();
    const changedReadings = Buffer.from(readings.replace(/\n450;[^;]*;/, '\n450;999.5;'));
    expect(changedReadings.equals(contents.get('readings.csv')!)).toBe(false);
    expect(await refused(await pack(new Map(contents).set('readings.csv', changedReadings)))).toContain(
      "readings.csv (its SHA-256 is not the manifest's)",
    );

    // The same, with the manifest's line of the file made to match: the raw data's hash still tells.
    const manifest = JSON.parse(contents.get('manifest.json')!.toString()) as {
      files: { name: string; sha256: string; size: number }[];
    };
    const forged = {
      ...manifest,
      files: manifest.files.map((f) =>
        f.name === 'readings.csv' ? { ...f, sha256: sha256(changedReadings), size: changedReadings.length } : f,
      ),
    };
    const detail = await refused(
      await pack(
        new Map(contents)
          .set('readings.csv', changedReadings)
          .set('manifest.json', Buffer.from(JSON.stringify(forged))),
      ),
    );
    expect(detail).toContain("readings.csv: its 63 readings do not reproduce the raw data's SHA-256 of the manifest");

    // One byte of a PDF changed.
    const pdf = Buffer.from(contents.get('documents/1/report-en.pdf')!);
    pdf[pdf.length - 20] = pdf[pdf.length - 20]! ^ 1;
    expect(await refused(await pack(new Map(contents).set('documents/1/report-en.pdf', pdf)))).toContain(
      "documents/1/report-en.pdf (its SHA-256 is not the manifest's)",
    );

    // A line of the manifest changed.
    const text = contents.get('manifest.json')!.toString();
    const line = manifest.files.find((f) => f.name === 'observations.json')!;
    const edited = text.replace(line.sha256, '0'.repeat(64));
    expect(edited).not.toBe(text);
    expect(await refused(await pack(new Map(contents).set('manifest.json', Buffer.from(edited))))).toContain(
      "observations.json (its SHA-256 is not the manifest's)",
    );

    // Files the manifest was made to vouch for, that are not what their table holds.
    const vouched = (name: string, data: Buffer) => {
      const files = manifest.files.map((f) =>
        f.name === name ? { ...f, sha256: sha256(data), size: data.length } : f,
      );
      return pack(
        new Map(contents).set(name, data).set('manifest.json', Buffer.from(JSON.stringify({ ...manifest, files }))),
      );
    };
    expect(await refused(await vouched('research.json', Buffer.from('{"name":')))).toBe('research.json is not JSON');
    expect(
      await refused(await vouched('readings.csv', Buffer.from(readings.replace(/\n450;[^;]*;/, '\n450;ciepło;')))),
    ).toMatch(/^readings\.csv: invalid input syntax for type real/);
    expect(await refused(await vouched('observations.json', Buffer.from('[{"time": "po południu"}]')))).toMatch(
      /^the archive's record does not fit this database: /,
    );

    expect(await refused(Buffer.from('not a zip at all'))).toBe('the file is not a zip archive');
    expect(await researchCount(target)).toBe(before);
    expect((await target.dataSource.query('SELECT * FROM research_import')) as unknown[]).toEqual([]);
  });

  it('is written in short transactions, hidden until it is whole: not listed, not readable, not exported', async () => {
    // Test hooks: batches of 10 readings, so that the 63 are written in several; the first batch's wait looks from outside.
    let seen:
      { id: string; listed: boolean; read: number; exported: number; readings: number; trail: number } | undefined;
    const staff = await signUpUser(target); // another caller than the importer: HeavyWork takes one heavy request per caller
    importHooks.firstBatch = 10;
    importHooks.afterBatch = async (id) => {
      if (seen) return;
      const list = (
        await target.http.get('/api/v1/research').query({ include_archived: 'true' }).set(auth(targetAdmin))
      ).body.data as { id: string }[];
      const count = async (sql: string) =>
        Number(((await target.dataSource.query(sql, [id])) as { n: string }[])[0]!.n);
      seen = {
        id,
        listed: list.some((r) => r.id === id),
        read: (await target.http.get(`/api/v1/research/${id}`).set(auth(targetAdmin))).status,
        exported: (await target.http.get(`/api/v1/research/${id}/archive.zip`).set(auth(staff.token))).status,
        readings: await count('SELECT count(*) AS n FROM reading WHERE research_id = $1'),
        trail: await count('SELECT count(*) AS n FROM audit_entry WHERE research_id = $1'),
      };
    };
    try {
      const res = await upload(target, targetAdmin, archive);
      expect(res.status).toBe(200);
      // Its readings were in the database, committed, while the test was nowhere to be seen; its trail not yet.
      expect(seen).toEqual({ id: res.body.id, listed: false, read: 404, exported: 404, readings: 10, trail: 0 });
      expect((await target.http.get(`/api/v1/research/${res.body.id}`).set(auth(targetAdmin))).status).toBe(200);
      expect((await target.dataSource.query('SELECT * FROM research_import')) as unknown[]).toEqual([]);
    } finally {
      importHooks.firstBatch = 100;
      importHooks.afterBatch = undefined;
    }
  });

  it('leaves no research, no readings and no audit rows when it fails in the middle', async () => {
    const contents = files(archive);
    const manifest = JSON.parse(contents.get('manifest.json')!.toString()) as {
      files: { name: string; sha256: string; size: number }[];
    };
    // The last reading not a number, the manifest made to vouch for the file: only the table refuses it, after the
    // readings before it were written in batches of their own.
    const readings = Buffer.from(
      contents
        .get('readings.csv')!
        .toString()
        .replace(/\n900;[^;]*;/, '\n900;ciepło;'),
    );
    const vouched = manifest.files.map((f) =>
      f.name === 'readings.csv' ? { ...f, sha256: sha256(readings), size: readings.length } : f,
    );
    const zip = await pack(
      new Map(contents)
        .set('readings.csv', readings)
        .set('manifest.json', Buffer.from(JSON.stringify({ ...manifest, files: vouched }))),
    );
    const before = await rowCounts(target);
    let written = 0;
    importHooks.firstBatch = 10;
    importHooks.afterBatch = async (id) => {
      written = Number(
        (
          (await target.dataSource.query('SELECT count(*) AS n FROM reading WHERE research_id = $1', [id])) as {
            n: string;
          }[]
        )[0]!.n,
      );
    };
    try {
      const res = await upload(target, targetAdmin, zip);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/^readings\.csv: invalid input syntax for type real/);
    } finally {
      importHooks.firstBatch = 100;
      importHooks.afterBatch = undefined;
    }
    expect(written).toBeGreaterThanOrEqual(30);
    expect(await rowCounts(target)).toEqual(before);
  });

  it('deletes at start-up what an import that died left', async () => {
    const before = await rowCounts(target);
    importHooks.firstBatch = 10;
    importHooks.afterBatch = () => Promise.reject(Object.assign(new Error('the process died'), { died: true }));
    // The failure's own clean-up is what the sweep does after a crash: keep it from running, as a crash would.
    const service = target.app.get(ArchiveService);
    const discard = jest
      .spyOn((service as unknown as { repo: { discard: () => Promise<void> } }).repo, 'discard')
      .mockResolvedValue(undefined);
    try {
      expect((await upload(target, targetAdmin, archive)).status).toBe(500);
    } finally {
      importHooks.firstBatch = 100;
      importHooks.afterBatch = undefined;
      discard.mockRestore();
    }
    const [left] = (await target.dataSource.query('SELECT research_id FROM research_import')) as {
      research_id: string;
    }[];
    expect(left).toBeDefined();
    expect((await target.http.get(`/api/v1/research/${left!.research_id}`).set(auth(targetAdmin))).status).toBe(404);
    await service.sweep(3600); // touched just now: not stale yet
    expect((await rowCounts(target)).research_import).toBe(1);
    await service.sweep(0);
    expect(await rowCounts(target)).toEqual(before);
  });

  it('is imported by superusers only', async () => {
    const staff = await signUpUser(target);
    expect((await upload(target, staff.token, archive)).status).toBe(403);
    const created = await createResearch(target, staff.token);
    const code = (await addClient(target, staff.token, created.id, 'klient@example.com')).id;
    expect((await upload(target, await viewerToken(target, created.id, code), archive)).status).toBe(403);
    expect((await target.http.post('/api/v1/research/import').attach('file', archive, 'a.zip')).status).toBe(401);
  });

  // Last: it reopens the source test.
  it('fails an export whose record changed while it was read (a reopen), and exports the reopened test as it stands', async () => {
    const admin = await login(source, SUPERUSER.email, SUPERUSER.password);
    const repo = (source.app.get(ArchiveService) as unknown as { repo: { short: (work: unknown) => Promise<unknown> } })
      .repo;
    const short = repo.short.bind(repo);
    let reopened = 0;
    let calls = 0;
    // Between two of the export's statements (after its first stamp of the record), a superuser reopens the test.
    const spy = jest.spyOn(repo, 'short').mockImplementation(async (work) => {
      if ((calls += 1) === 2) {
        reopened = (
          await source.http
            .post(`/api/v1/research/${researchId}/reopen`)
            .set(auth(admin))
            .send({ reason: 'Poprawka opisu' })
        ).status;
      }
      return short(work);
    });
    try {
      const failed = await exportOutcome();
      expect(reopened).toBe(200);
      // The connection cut before the manifest: no archive of two moments.
      expect(failed).toEqual({ error: expect.any(String) });
    } finally {
      spy.mockRestore();
    }
    const again = await downloadArchive();
    expect(again.status).toBe(200);
    const research = JSON.parse(
      files(again.body as Buffer)
        .get('research.json')!
        .toString(),
    ) as { approved_revision: number | null };
    expect(research.approved_revision).toBeNull();
  });

  // After the reopen above: the test is no longer approved, so its readings are counted again at the export's end.
  it('fails the export of a test not approved when a frame is stored among the readings it has read', async () => {
    const repo = (
      source.app.get(ArchiveService) as unknown as {
        repo: {
          short: (
            work: (run: (sql: string, params?: unknown[]) => Promise<unknown[]>) => Promise<unknown>,
          ) => Promise<unknown>;
        };
      }
    ).repo;
    const short = repo.short.bind(repo);
    let pages = 0;
    let stored = false;
    // Before the statement after the first page of readings (times −30 to 705), a late frame at 7.5 s is stored.
    const spy = jest.spyOn(repo, 'short').mockImplementation(async (work) => {
      if (pages === 1 && !stored) {
        stored = true;
        await source.dataSource.query(
          `INSERT INTO reading (research_id, "time", ts, pk, thermocouples)
           SELECT $1, 7.5, r.start_at + 7.5 * INTERVAL '1 second', 25, '{21,22,23}'::real[] FROM research r WHERE r.id = $1`,
          [researchId],
        );
      }
      return short((run) =>
        work(async (sql, params) => {
          const rows = await run(sql, params);
          if (sql.includes('FROM reading WHERE research_id = $1 AND "time" > $2')) pages += 1;
          return rows;
        }),
      );
    });
    try {
      const failed = await exportOutcome();
      expect(stored).toBe(true);
      expect(pages).toBeGreaterThan(1);
      // The connection cut before the manifest: no readings of two moments.
      expect(failed).toEqual({ error: expect.any(String) });
    } finally {
      spy.mockRestore();
    }
    const again = await downloadArchive();
    expect(again.status).toBe(200);
    const manifest = JSON.parse(
      files(again.body as Buffer)
        .get('manifest.json')!
        .toString(),
    ) as { readings: number };
    expect(manifest.readings).toBe(64);
  });
});
