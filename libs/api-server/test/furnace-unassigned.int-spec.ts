// A furnace's unassigned readings over HTTP (docs/behaviour.md, "Furnaces"): the frames of its DAQ that no test was
// scheduled for at their time, listed as ranges and attached by staff to the test they belong to — with its rollups
// and criteria brought up to date and an audit entry — and the refusals.
import { login, researchBody, SUPERUSER, waitFor } from '@furnace/testing';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

const FURNACES = '/api/v1/furnaces';
const RESEARCH = '/api/v1/research';
const HOUR = 3600_000;

describe('a furnace’s unassigned readings', () => {
  let api: TestApi;
  let admin: string;
  let staff: string;
  let staffEmail: string;
  let seq = 0;

  const createFurnace = async (scanPeriodS = 1) => {
    seq += 1;
    const res = await api.http
      .post(FURNACES)
      .set(auth(admin))
      .send({ name: `Piec U${seq}`, code: `u${seq}`, scan_period_s: scanPeriodS });
    expect(res.status).toBe(200);
    return res.body as { id: string; name: string };
  };
  const createResearch = async (furnaceId: string | null, startAt: number, endAt: number) => {
    const res = await api.http
      .post(RESEARCH)
      .set(auth(staff))
      .send(
        researchBody({
          furnace_id: furnaceId,
          start_at: new Date(startAt).toISOString(),
          end_at: new Date(endAt).toISOString(),
        }),
      );
    expect(res.status).toBe(200);
    return res.body as { id: string; name: string };
  };
  /** Unassigned readings as the ingest stores them: at `start` + each DAQ time (s). */
  const keep = (furnaceId: string, start: number, times: number[]) =>
    api.dataSource.query(
      `INSERT INTO furnace_reading (furnace_id, "time", daq_time, pk, pressure, thermocouples, received_at)
       SELECT $1, to_timestamp($2 / 1000.0) + t * INTERVAL '1 second', t, 500 + t, 15, ARRAY[20 + t / 100, 21]::real[], now()
       FROM unnest($3::float8[]) AS t`,
      [furnaceId, start, times],
    );
  const unassigned = async (furnaceId: string, token = staff) =>
    api.http.get(`${FURNACES}/${furnaceId}/unassigned`).set(auth(token));
  const attach = (furnaceId: string, body: object, token = staff) =>
    api.http.post(`${FURNACES}/${furnaceId}/unassigned/attach`).set(auth(token)).send(body);
  const readingTimes = async (researchId: string) =>
    (
      (await api.dataSource.query('SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time"', [
        researchId,
      ])) as { time: number }[]
    ).map((r) => r.time);
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    api = await startTestApi({}, { criteriaKeeper: { tickMs: 200 } });
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    const user = await signUpUser(api);
    staff = user.token;
    staffEmail = user.email;
  });
  afterAll(() => api?.close());

  it('lists them as ranges split by gaps of more than 10 scan periods', async () => {
    const furnace = await createFurnace(2);
    const start = Date.parse('2031-01-01T08:00:00Z');
    // Every 2 s from 0 to 40 s, then a gap of 60 s (> 20 s), then 100..110 s.
    await keep(furnace.id, start, [...Array.from({ length: 21 }, (_, i) => i * 2), 100, 105, 110]);
    const res = await unassigned(furnace.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { from: iso(start), to: iso(start + 40_000), frames: 21 },
        { from: iso(start + 100_000), to: iso(start + 110_000), frames: 3 },
      ],
      frames: 24,
      gap_s: 20,
    });
    expect((await unassigned('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('attaches a range to the test of the furnace: readings, rollups and criteria up to date, audited; a reading it already has is kept', async () => {
    const furnace = await createFurnace();
    const start = Date.now() - 2 * HOUR;
    const research = await createResearch(furnace.id, start, start + HOUR);
    // Before its frames: the criteria have nothing yet.
    const before = await api.http.get(`${RESEARCH}/${research.id}/criteria`).set(auth(staff));
    expect(before.status).toBe(200);
    expect(before.body.elapsed).toBeNull();
    // The test already holds a reading at 30 s (from its own topic): it keeps it.
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, pk) VALUES ($1, 30, to_timestamp($2 / 1000.0) + INTERVAL '30 seconds', 999)`,
      [research.id, start],
    );
    // Pre-ignition frames and the first minutes, kept as unassigned (the DAQ started before the test was scheduled).
    const times = [-60, -30, 0, 30, 60, 90, 120];
    await keep(furnace.id, start, times);

    const res = await attach(furnace.id, { research_id: research.id, from: iso(start - HOUR), to: iso(start + HOUR) });
    expect(res.status).toBe(200);
    // -60 and -30 lie before the test's window: they stay unassigned.
    expect(res.body).toEqual({
      attached: 4,
      skipped: 1,
      message: `Attached 4 readings to "${research.name}"; 1 skipped (the test already has readings at their times)`,
    });
    expect(await readingTimes(research.id)).toEqual([0, 30, 60, 90, 120]);
    const kept = await api.dataSource.query('SELECT pk, ts FROM reading WHERE research_id = $1 AND "time" = 30', [
      research.id,
    ]);
    expect(kept[0].pk).toBe(999);
    const moved = await api.dataSource.query('SELECT pk, ts FROM reading WHERE research_id = $1 AND "time" = 60', [
      research.id,
    ]);
    expect(moved[0]).toMatchObject({ pk: 560 });
    expect((moved[0].ts as Date).toISOString()).toBe(iso(start + 60_000));
    // Left: the two before the window, and the one skipped (30 s apart: a range each at one scan a second).
    const left = await unassigned(furnace.id);
    expect(left.body.data.map((r: { from: string }) => r.from)).toEqual([
      iso(start - 60_000),
      iso(start - 30_000),
      iso(start + 30_000),
    ]);

    // The rollups hold every reading (the history's charts read them).
    const [rollup] = await api.dataSource.query(
      `SELECT sum(frames)::int AS frames, max(last_time) AS last FROM reading_rollup
       WHERE research_id = $1 AND width = (SELECT min(width) FROM reading_rollup WHERE research_id = $1)`,
      [research.id],
    );
    expect(rollup).toEqual({ frames: 5, last: 120 });
    // The criteria see them.
    await waitFor('the criteria over the attached readings', async () => {
      const c = await api.http.get(`${RESEARCH}/${research.id}/criteria`).set(auth(staff));
      return c.body.elapsed === 120;
    });

    const trail = await api.http
      .get('/api/v1/audit')
      .query({ research_id: research.id, per_page: 100 })
      .set(auth(admin));
    const entry = trail.body.data.find((e: { entity: string }) => e.entity === 'reading');
    expect(entry).toMatchObject({
      actor: staffEmail,
      entity: 'reading',
      entity_id: furnace.id,
      action: 'attach',
      after: { furnace_id: furnace.id, attached: 4, skipped: 1 },
    });
  });

  it('brings the criteria of a test that already had later readings up to date, as if every reading had come in order', async () => {
    const furnace = await createFurnace();
    const start = Date.now() - 3 * HOUR;
    const research = await createResearch(furnace.id, start, start + HOUR);
    const control = await createResearch(null, start - 2 * HOUR, start - HOUR);
    const steps = (from: number, to: number) => Array.from({ length: (to - from) / 10 + 1 }, (_, i) => from + i * 10);
    const store = (researchId: string, times: number[]) =>
      api.dataSource.query(
        `INSERT INTO reading (research_id, "time", ts, pk, pressure, thermocouples)
         SELECT $1, t, r.start_at + t * INTERVAL '1 second', 500 + t, 15, ARRAY[20 + t / 100, 21]::real[]
         FROM research r, unnest($2::float8[]) AS t WHERE r.id = $1`,
        [researchId, times],
      );
    // The test's DAQ reached its own topic only from 400 s; its first minutes were kept as unassigned.
    await store(research.id, steps(400, 800));
    await keep(furnace.id, start, steps(0, 390));
    // The control test got every reading in order.
    await store(control.id, steps(0, 800));
    const deviation = async (id: string) =>
      (await api.http.get(`${RESEARCH}/${id}/criteria`).set(auth(staff))).body.deviation.d_e as number | null;
    const expected = await deviation(control.id);
    expect(expected).not.toBeNull();
    // Kept by this instance, over the readings from 400 s.
    const partial = await deviation(research.id);
    expect(partial).not.toBe(expected);

    const res = await attach(furnace.id, { research_id: research.id, from: iso(start), to: iso(start + HOUR) });
    expect(res.body).toMatchObject({ attached: 40, skipped: 0 });
    await waitFor('the criteria over every reading', async () => (await deviation(research.id)) === expected);
  });

  it('refuses a test of another furnace, a range outside the window, nothing to attach, and bad input', async () => {
    const furnace = await createFurnace();
    const other = await createFurnace();
    const start = Date.now() - 5 * HOUR;
    const research = await createResearch(furnace.id, start, start + HOUR);
    const elsewhere = await createResearch(other.id, start, start + HOUR);
    const unscheduled = await createResearch(null, start, start + HOUR);
    await keep(furnace.id, start, [10, 20]);
    const range = { from: iso(start), to: iso(start + HOUR) };

    const wrong = await attach(furnace.id, { research_id: elsewhere.id, ...range });
    expect([wrong.status, wrong.body.detail]).toEqual([
      409,
      `The test "${elsewhere.name}" is not scheduled on furnace "${furnace.name}": only a test on this furnace can take its readings`,
    ]);
    expect((await attach(furnace.id, { research_id: unscheduled.id, ...range })).status).toBe(409);

    const outside = await attach(furnace.id, {
      research_id: research.id,
      from: iso(start + 2 * HOUR),
      to: iso(start + 3 * HOUR),
    });
    expect(outside.status).toBe(422);
    expect(outside.body.detail[0]).toMatchObject({
      loc: ['body', 'from'],
      msg: `The range ${iso(start + 2 * HOUR)} – ${iso(start + 3 * HOUR)} lies outside the test's window (${iso(start)} – ${iso(start + HOUR)})`,
    });

    const empty = await attach(furnace.id, {
      research_id: research.id,
      from: iso(start + 30_000),
      to: iso(start + 60_000),
    });
    expect(empty.status).toBe(409);
    expect(empty.body.detail).toMatch(/has no unassigned readings .*: nothing to attach$/);

    const backwards = await attach(furnace.id, { research_id: research.id, from: range.to, to: range.from });
    expect([backwards.status, backwards.body.detail[0].loc]).toEqual([422, ['body', 'to']]);
    const bad = await attach(furnace.id, { research_id: 'nope', from: 'yesterday', to: range.to });
    expect(bad.status).toBe(422);
    expect([...new Set(bad.body.detail.map((d: { loc: string[] }) => d.loc[1]))].sort()).toEqual([
      'from',
      'research_id',
    ]);

    // Nothing moved by any of them.
    expect((await unassigned(furnace.id)).body.frames).toBe(2);
    expect(await readingTimes(research.id)).toEqual([]);
    // A furnace holding unassigned readings (and no test) is not deleted.
    const lonely = await createFurnace();
    await keep(lonely.id, start, [1, 2]);
    const deleted = await api.http.delete(`${FURNACES}/${lonely.id}`).set(auth(admin));
    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toMatch(/holds 2 unassigned readings/);
  });
});
