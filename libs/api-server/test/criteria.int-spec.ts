import { randomUUID } from 'node:crypto';
import { addClient, createResearch, insertFrame, uploadConfig, SPECIMEN_PNG, viewerToken } from './factories';
import {
  connectViewer,
  DOOR_PROFILE,
  login,
  NEW_RESEARCH_PROFILE,
  researchBody,
  streamUrl,
  SUPERUSER,
  type TestViewer,
  waitFor,
} from '@furnace/testing';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

describe('test profile of a research', () => {
  let api: TestApi;
  let staff: string;
  let staffEmail: string;

  beforeAll(async () => {
    api = await startTestApi();
    const user = await signUpUser(api);
    staff = user.token;
    staffEmail = user.email;
  });
  afterAll(() => api?.close());

  const create = (body: object) =>
    api.http
      .post('/api/v1/research/')
      .set(auth(staff))
      .send({
        ...researchBody({ name: 'Drzwi EI2 60', start_at: '2026-03-01T08:00:00Z', end_at: '2026-03-01T12:00:00Z' }),
        ...body,
      });
  const update = (id: string, body: object) => api.http.put(`/api/v1/research/${id}`).set(auth(staff)).send(body);

  it('gives a new research the rise basis on the ISO 834 curve by default', async () => {
    const res = await create({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(NEW_RESEARCH_PROFILE);
  });

  it('stores every profile field, and a door gets insulation I2 unless told I1', async () => {
    const { insulation: _default, ...door60 } = DOOR_PROFILE;
    const door = await create({ ...door60, heating_curve: 'slow', criteria_basis: 'absolute' });
    expect(door.status).toBe(200);
    expect(door.body).toMatchObject({
      standard: 'EN_1634_1',
      insulation: 'I2',
      heating_curve: 'slow',
      criteria_basis: 'absolute',
      planned_duration_min: 60,
      pressure_target_pa: 20,
      pressure_tolerance_pa: 3,
    });
    const i1 = await update(door.body.id, { insulation: 'I1' });
    expect(i1.body.insulation).toBe('I1');
    const read = await api.http.get(`/api/v1/research/${door.body.id}`).set(auth(staff));
    expect(read.body).toMatchObject({ standard: 'EN_1634_1', insulation: 'I1', planned_duration_min: 60 });
    // Another standard has no insulation classes: the class goes with the door.
    const wall = await update(door.body.id, { standard: 'EN_1364_1' });
    expect(wall.body).toMatchObject({ standard: 'EN_1364_1', insulation: null });
  });

  it.each([
    [
      { standard: 'EN_1364_1', insulation: 'I2' },
      'insulation',
      'insulation (I1/I2) applies to EN_1634_1 (doors and shutters) only; give null for EN_1364_1',
    ],
    [{ standard: 'EN 1363-1' }, 'standard', 'standard must be one of EN_1363_1, EN_1634_1, EN_1364_1, DIN_4102_5'],
    [{ heating_curve: 'iso' }, 'heating_curve', 'heating_curve must be one of iso834, hydrocarbon, external, slow'],
    [{ criteria_basis: 'relative' }, 'criteria_basis', 'criteria_basis must be one of rise, absolute'],
    [{ planned_duration_min: 60.5 }, 'planned_duration_min', 'planned_duration_min must be a whole number of minutes'],
    [{ planned_duration_min: 0 }, 'planned_duration_min', 'planned_duration_min must be at least 1'],
    [
      { pressure_tolerance_pa: 3 },
      'pressure_tolerance_pa',
      'pressure_tolerance_pa needs pressure_target_pa: give the target too',
    ],
    [
      { pressure_target_pa: 20, pressure_tolerance_pa: -1 },
      'pressure_tolerance_pa',
      'pressure_tolerance_pa must not be negative',
    ],
    [{ t0_override: 400 }, 't0_override', 't0_override must be at most 100 °C'],
    [{ standard: null }, 'standard', 'standard must be one of EN_1363_1, EN_1634_1, EN_1364_1, DIN_4102_5'],
  ])('refuses %j with a 422 naming %s, and changes nothing', async (body, field, msg) => {
    const created = await create({ standard: 'EN_1634_1', planned_duration_min: 30 });
    const res = await update(created.body.id, body);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', field], msg })]));
    const after = await api.http.get(`/api/v1/research/${created.body.id}`).set(auth(staff));
    expect(after.body).toEqual(created.body);
    expect((await create(body)).status).toBe(422);
  });

  it('keeps who set T0 by hand and when; clearing it is kept too', async () => {
    const r = await create({});
    const before = Date.now();
    const set = await update(r.body.id, { t0_override: 19.5 });
    expect(set.body).toMatchObject({ t0_override: 19.5, t0_set_by: staffEmail });
    expect(Date.parse(set.body.t0_set_at)).toBeGreaterThanOrEqual(before - 1000);
    const cleared = await update(r.body.id, { t0_override: null });
    expect(cleared.body).toMatchObject({ t0_override: null, t0_set_by: staffEmail });
    const untouched = await update(r.body.id, { name: 'renamed', t0_override: 21 });
    expect(untouched.body.t0_set_at).not.toBe(cleared.body.t0_set_at);
    const renamed = await update(r.body.id, { name: 'renamed again' });
    expect(renamed.body.t0_set_at).toBe(untouched.body.t0_set_at);
    // A client sees T0 but not which member of staff typed it.
    const code = (await addClient(api, staff, r.body.id, 'client@example.com')).id;
    const asClient = await api.http
      .get(`/api/v1/research/${r.body.id}`)
      .set(auth(await viewerToken(api, r.body.id, code)));
    expect(asClient.body).toMatchObject({ t0_override: 21, t0_set_by: null, t0_set_at: renamed.body.t0_set_at });
  });
});

describe('observations and thermocouple exclusions', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let viewer: string;
  let otherViewer: string;
  const sockets: TestViewer[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (await createResearch(api, staff)).id;
    const other = (await createResearch(api, staff)).id;
    viewer = await viewerToken(api, researchId, (await addClient(api, staff, researchId, 'client@example.com')).id);
    otherViewer = await viewerToken(api, other, (await addClient(api, staff, other, 'rival@example.com')).id);
    expect((await uploadConfig(api, staff, researchId, SPECIMEN_PNG)).status).toBe(200); // thermo_id 1–3
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await api?.close();
  });

  const observe = (body: object, token = staff) =>
    api.http.post(`/api/v1/research/${researchId}/observations`).set(auth(token)).send(body);
  const list = (token: string, id = researchId) => api.http.get(`/api/v1/research/${id}/observations`).set(auth(token));

  it('records an observation at the newest frame by default, and shows clients only those made visible', async () => {
    expect((await observe({ kind: 'cotton_pad' })).body.detail[0]).toMatchObject({
      loc: ['body', 'time'],
      msg: 'no frame of this research is stored yet: give the time (s since ignition)',
    });
    await insertFrame(api, researchId, 600);
    await insertFrame(api, researchId, 601.5);
    const pad = await observe({ kind: 'cotton_pad', note: ' ignited at the top hinge ' });
    expect(pad.status).toBe(200);
    expect(pad.body).toMatchObject({
      research_id: researchId,
      time: 601.5,
      kind: 'cotton_pad',
      note: 'ignited at the top hinge',
      visible_to_clients: false,
      created_by: SUPERUSER.email,
    });
    const note = await observe({ time: 300, kind: 'note', note: 'smoke from the top edge', visible_to_clients: true });
    expect(note.body).toMatchObject({ time: 300, kind: 'note', visible_to_clients: true });

    expect((await list(staff)).body.data.map((o: { kind: string }) => o.kind)).toEqual(['note', 'cotton_pad']);
    const seen = (await list(viewer)).body.data;
    expect(seen).toEqual([
      expect.objectContaining({ id: note.body.id, note: 'smoke from the top edge', created_by: null }),
    ]);

    const shown = await api.http
      .patch(`/api/v1/research/observations/${pad.body.id}`)
      .set(auth(staff))
      .send({ visible_to_clients: true });
    expect(shown.body).toMatchObject({ visible_to_clients: true, note: 'ignited at the top hinge' });
    expect((await list(viewer)).body.data.map((o: { kind: string }) => o.kind)).toEqual(['note', 'cotton_pad']);

    expect((await api.http.delete(`/api/v1/research/observations/${pad.body.id}`).set(auth(staff))).status).toBe(200);
    expect((await list(staff)).body.data.map((o: { kind: string }) => o.kind)).toEqual(['note']);
    expect((await api.http.delete(`/api/v1/research/observations/${pad.body.id}`).set(auth(staff))).status).toBe(404);
  });

  it('refuses bad observations with a 422 naming the field', async () => {
    const cases: [object, string, string][] = [
      [
        { time: 1, kind: 'door_fell' },
        'kind',
        'kind must be one of cotton_pad, gap_6mm, gap_25mm, sustained_flaming, note, test_stopped',
      ],
      [{ time: 1, kind: 'note' }, 'note', 'note must not be empty for an observation of kind note'],
      [{ time: 1, kind: 'note', note: '   ' }, 'note', 'note must not be empty for an observation of kind note'],
      [{ time: -4000, kind: 'gap_6mm' }, 'time', 'time must be at least -3600 s'],
      [{ time: 'soon', kind: 'gap_6mm' }, 'time', 'time must be a number of seconds'],
    ];
    const before = (await list(staff)).body.data.length;
    for (const [body, field, msg] of cases) {
      const res = await observe(body);
      expect({ body, status: res.status, detail: res.body.detail }).toEqual({
        body,
        status: 422,
        detail: expect.arrayContaining([expect.objectContaining({ loc: ['body', field], msg })]),
      });
    }
    expect((await list(staff)).body.data.length).toBe(before);
  });

  it("lets no client record or change an observation, nor read another research's", async () => {
    const mine = (await observe({ time: 10, kind: 'gap_6mm' })).body.id;
    expect((await observe({ time: 12, kind: 'gap_25mm' }, viewer)).status).toBe(403);
    expect(
      (
        await api.http
          .patch(`/api/v1/research/observations/${mine}`)
          .set(auth(viewer))
          .send({ visible_to_clients: true })
      ).status,
    ).toBe(403);
    expect((await api.http.delete(`/api/v1/research/observations/${mine}`).set(auth(viewer))).status).toBe(403);
    expect((await list(otherViewer)).status).toBe(403);
    expect((await api.http.get(`/api/v1/research/${researchId}/exclusions`).set(auth(otherViewer))).status).toBe(403);
    expect((await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(otherViewer))).status).toBe(403);
    expect(
      (
        await api.http
          .post(`/api/v1/research/${researchId}/exclusions`)
          .set(auth(viewer))
          .send({ thermo_id: 1, from_time: 0, reason: 'x' })
      ).status,
    ).toBe(403);
  });

  it('tells live viewers: UPDATE OBSERVATION after an observation changes (a hidden one: staff only), UPDATE RESEARCH after an exclusion', async () => {
    const client = await connectViewer(streamUrl(api, researchId, { token: viewer }));
    const lab = await connectViewer(streamUrl(api, researchId, { token: staff }));
    sockets.push(client, lab);
    const updates = (socket: typeof client) => socket.messages.filter((m) => m.event === 'UPDATE').map((m) => m.data);
    for (const socket of [client, lab]) socket.ws.send('STATUS'); // as the dashboard does on open: the answer says the stream is subscribed
    await waitFor('the STATUS answers', () =>
      [client, lab].every((socket) => socket.messages.some((m) => m.event === 'STATUS')),
    );
    // Recorded hidden from clients, changed while hidden: only staff hear of it.
    const o = (await observe({ time: 20, kind: 'sustained_flaming' })).body.id;
    await waitFor('UPDATE to staff after recording', () => updates(lab).length === 1);
    await api.http.patch(`/api/v1/research/observations/${o}`).set(auth(staff)).send({ note: 'on the hinge side' });
    await waitFor('UPDATE to staff after changing', () => updates(lab).length === 2);
    // Shown to clients, then deleted: both hear of each.
    await api.http.patch(`/api/v1/research/observations/${o}`).set(auth(staff)).send({ visible_to_clients: true });
    await api.http.delete(`/api/v1/research/observations/${o}`).set(auth(staff));
    await waitFor(
      'UPDATE to both after showing and deleting',
      () => updates(lab).length === 4 && updates(client).length === 2,
    );
    const exclusion = await api.http
      .post(`/api/v1/research/${researchId}/exclusions`)
      .set(auth(staff))
      .send({ thermo_id: 2, from_time: 90, reason: 'came loose' });
    expect(exclusion.status).toBe(200);
    await waitFor('UPDATE after excluding', () => updates(lab).length === 5 && updates(client).length === 3);
    expect(updates(lab)).toEqual(['OBSERVATION', 'OBSERVATION', 'OBSERVATION', 'OBSERVATION', 'RESEARCH']);
    expect(updates(client)).toEqual(['OBSERVATION', 'OBSERVATION', 'RESEARCH']);
  });

  it('keeps exclusions with who, when and why; refuses a thermocouple the research does not have', async () => {
    const created = await api.http
      .post(`/api/v1/research/${researchId}/exclusions`)
      .set(auth(staff))
      .send({ thermo_id: 3, from_time: 1200, reason: '  reads 40 K below its neighbours ' });
    expect(created.body).toMatchObject({
      research_id: researchId,
      thermo_id: 3,
      from_time: 1200,
      reason: 'reads 40 K below its neighbours',
      created_by: SUPERUSER.email,
    });
    const asViewer = (await api.http.get(`/api/v1/research/${researchId}/exclusions`).set(auth(viewer))).body.data;
    expect(asViewer).toEqual(
      expect.arrayContaining([expect.objectContaining({ thermo_id: 3, from_time: 1200, created_by: null })]),
    );

    const cases: [object, string, string][] = [
      [
        { thermo_id: 9, from_time: 0, reason: 'x' },
        'thermo_id',
        'thermo_id 9 is not a thermocouple of this research (its configs have thermo_id 1–3)',
      ],
      [{ thermo_id: 0, from_time: 0, reason: 'x' }, 'thermo_id', 'thermo_id must be at least 1'],
      [{ thermo_id: 1, from_time: 0, reason: '  ' }, 'reason', 'reason must not be empty'],
      [{ thermo_id: 1, reason: 'x' }, 'from_time', 'from_time must be a number of seconds'],
    ];
    const before = asViewer.length;
    for (const [body, field, msg] of cases) {
      const res = await api.http.post(`/api/v1/research/${researchId}/exclusions`).set(auth(staff)).send(body);
      expect({ body, status: res.status, detail: res.body.detail }).toEqual({
        body,
        status: 422,
        detail: expect.arrayContaining([expect.objectContaining({ loc: ['body', field], msg })]),
      });
    }
    expect((await api.http.get(`/api/v1/research/${researchId}/exclusions`).set(auth(staff))).body.data.length).toBe(
      before,
    );

    expect((await api.http.delete(`/api/v1/research/exclusions/${created.body.id}`).set(auth(staff))).status).toBe(200);
    expect((await api.http.delete(`/api/v1/research/exclusions/${randomUUID()}`).set(auth(staff))).status).toBe(404);
  });
});

/** ISO 834, written out here so that the test does not lean on the code it checks. */
const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);

describe('GET /research/{id}/criteria over the stored frames', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let viewer: string;
  const IGNITION = Date.parse('2026-03-01T08:07:00Z'); // seven minutes after the scheduled start

  beforeAll(async () => {
    api = await startTestApi();
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (
      await createResearch(api, staff, { start_at: '2026-03-01T08:00:00Z', end_at: '2026-03-01T09:30:00Z' })
    ).id;
    viewer = await viewerToken(api, researchId, (await addClient(api, staff, researchId, 'client@example.com')).id);
    // T1, T2: "Tśr i Tmax" (mean and max); T3: "Tmax ościeżnicy" (frame).
    expect((await uploadConfig(api, staff, researchId, SPECIMEN_PNG)).status).toBe(200);
    const frames: { time: number; pk: number | null; tc: (number | null)[]; faults: number[] | null }[] = [];
    frames.push({ time: -120, pk: 20, tc: [5, 5, 20.5], faults: null }); // before the 60 s window: not in T0
    for (let t = -60; t < 0; t += 10) frames.push({ time: t, pk: 20, tc: [20, 21, 20.5], faults: null });
    for (let t = 0; t <= 3600; t += 10) {
      // T3 breaks at 30:00 (the ingest nulls it and flags the channel).
      const broken = t >= 1800;
      frames.push({
        time: t,
        pk: 0.95 * iso834(t),
        tc: [20 + t / 20, 21 + t / 18, broken ? null : 20.5],
        faults: broken ? [3] : null,
      });
    }
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, daq_ts, pk, thermocouples, faults)
       SELECT $1, f.time, r.start_at + f.time * INTERVAL '1 second', to_timestamp($2 / 1000.0) + f.time * INTERVAL '1 second', f.pk,
              (f.tc)::real[], (f.faults)::smallint[]
       FROM research r, jsonb_to_recordset($3::jsonb) AS f(time float8, pk real, tc text, faults text) WHERE r.id = $1`,
      [
        researchId,
        IGNITION,
        JSON.stringify(
          frames.map((f) => ({
            ...f,
            tc: `{${f.tc.map((v) => (v === null ? 'NULL' : v)).join(',')}}`,
            faults: f.faults ? `{${f.faults.join(',')}}` : null,
          })),
        ),
      ],
    );
    // An integrity failure at 50:00 that clients are not shown (sustained flaming: after the insulation
    // failure at 44:20 a cotton pad would no longer count, EN 1363-1 §11.2).
    expect(
      (
        await api.http
          .post(`/api/v1/research/${researchId}/observations`)
          .set(auth(staff))
          .send({ time: 3000, kind: 'sustained_flaming' })
      ).status,
    ).toBe(200);
  });
  afterAll(() => api?.close());

  it('gives T0 from the 60 s before ignition, the rises, d_e, the failures and the class (staff)', async () => {
    const res = await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff));
    expect(res.status).toBe(200);
    const c = res.body;
    // T0: mean of T1 and T2 (the mean's thermocouples) over −60 ≤ t < 0 = (20 + 21) / 2.
    expect(c.t0).toBeCloseTo(20.5, 6);
    expect(c).toMatchObject({
      t0_source: 'auto',
      elapsed: 3600,
      basis: 'rise',
      ended: true,
      ignition_at: new Date(IGNITION).toISOString(),
    });
    expect(c.limits.max).toMatchObject({ k: 180, c: 200.5, text: 'T0 + 180 K = 200.5 °C' });
    expect(c.limits.mean).toMatchObject({ k: 140, c: 160.5 });
    // pk = 0.95 · ISO 834 everywhere: d_e = −5.00 %; at 60:00 the tolerance is 5 − 0.083 · 30 = 2.51 %.
    expect(c.deviation.d_e).toBeCloseTo(-5, 2);
    expect(c.deviation.tolerance).toBeCloseTo(2.51, 2);
    expect(c.deviation.ok).toBe(false);
    // −5 % leaves the tolerance once it falls below 5 %: 15 − 0.5 · (t − 10) < 5 after 30:00, so from the frame at
    // 30:10 to the end, the worst at 60:00 where the tolerance is smallest (EN 1363-1 §5.1.2).
    expect(c.deviation.conforming).toBe(false);
    expect(c.deviation.periods).toHaveLength(1);
    expect(c.deviation.periods[0]).toMatchObject({ from: 1810, to: 3600, open: true, worst_time: 3600 });
    expect(c.deviation.periods[0].worst).toBeCloseTo(-5, 2);
    expect(c.deviation.periods[0].worst_tolerance).toBeCloseTo(2.51, 2);
    // Mean rise (t/20 + t/18)/2 > 140 K first at t = 2660 (two scans: 2660 and 2670); T2's rise t/18 − 0.5 + 1 > 180 K first at 3240.
    const failure = (criterion: string) => c.failures.find((f: { criterion: string }) => f.criterion === criterion);
    expect(failure('I_mean')).toMatchObject({ time: 2660, interval_from: null });
    expect(failure('I_max')).toMatchObject({ time: 3240, thermo_id: 2 });
    expect(failure('I_frame')).toBeUndefined();
    // E at 50:00 (the observation), I at 44:20 → completed minutes 50 and 44.
    expect(c.criteria.E).toMatchObject({ time: 3000, minutes: 50, reached: true });
    expect(c.criteria.I).toMatchObject({ time: 2660, minutes: 44, reached: true });
    expect(c.classification).toMatch(/^E 45, EI 30\b/);
    expect(c.suspects).toEqual(
      expect.arrayContaining([expect.objectContaining({ thermo_id: 3, reason: 'fault', time: 1800 })]),
    );
  });

  it("gives the history the time of day from the frames' own clock, the flagged channels, and the frames before ignition", async () => {
    const res = await api.http.get(`/api/v1/research/${researchId}/history`).set(auth(viewer));
    expect(res.status).toBe(200);
    // The scheduled start was 08:00; the DAQ's clock says the furnace was lit at 08:07.
    expect(res.body.ignition_at).toBe('2026-03-01T08:07:00.000Z');
    // T3 broke at 30:00: flagged in every frame from then to 60:00, one every 10 s.
    expect(res.body.faults).toEqual([{ thermo_id: 3, first_time: 1800, last_time: 3600, frames: 181 }]);
    const early = await api.http.get(`/api/v1/research/${researchId}/history?from=-60&to=0`).set(auth(viewer));
    expect(early.body).toMatchObject({ from: -60, to: 0, frames: 7, faults: [] });
    expect(early.body.time).toEqual([-60, -50, -40, -30, -20, -10, 0]);
  });

  it('puts the flagged channels and the observations in the CSV; a client gets only the visible observations', async () => {
    const note = await api.http
      .post(`/api/v1/research/${researchId}/observations`)
      .set(auth(staff))
      .send({ time: 1795, kind: 'note', note: '=cmd|x', visible_to_clients: true });
    expect(note.status).toBe(200);
    const csv = async (token: string) => {
      const res = await api.http
        .get(`/api/v1/research/${researchId}/history.csv?decimal=point&from=1790&to=3010`)
        .set(auth(token));
      expect(res.status).toBe(200);
      return new Map(
        res.text
          .slice(1)
          .split('\r\n')
          .slice(1, -1)
          .map((line) => line.split(','))
          .map((cells) => [Number(cells[0]), cells.slice(-2)] as const),
      );
    };
    const staffRows = await csv(staff);
    expect(staffRows.get(1790)).toEqual(['', '']);
    expect(staffRows.get(1800)).toEqual(['3', 'note']); // T3 broke; the note at 29:55 is on the first frame after it
    expect(staffRows.get(3000)).toEqual(['3', 'sustained_flaming']);
    const clientRows = await csv(viewer);
    expect(clientRows.get(1800)).toEqual(['3', 'note']);
    expect(clientRows.get(3000)).toEqual(['3', '']); // the flaming is not shown to clients
    await api.http.delete(`/api/v1/research/observations/${note.body.id}`).set(auth(staff));
  });

  it('gives a client the same criteria as staff, though the flaming that ended E is hidden from them; staff may withhold the classification', async () => {
    const asClient = async () => (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(viewer))).body;
    const asStaff = (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff))).body;
    const client = await asClient();
    // E at 50:00 for everyone: a hidden observation does not give a client a better class.
    expect(client.criteria.E).toMatchObject({ time: 3000, reached: true, minutes: 50 });
    expect(client.classification).toBe(asStaff.classification);
    expect(client).toEqual(asStaff);
    expect(client.classification_withheld).toBe(false);

    expect(
      (await api.http.put(`/api/v1/research/${researchId}`).set(auth(staff)).send({ classification_to_clients: false }))
        .body.classification_to_clients,
    ).toBe(false);
    const withheld = await asClient();
    expect(withheld).toMatchObject({
      classification: null,
      classification_withheld: true,
      failures: asStaff.failures,
      deviation: asStaff.deviation,
    });
    expect(withheld.criteria.E).toMatchObject({ time: 3000, reached: true, minutes: null, held_minutes: null });
    const stillStaff = (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff))).body;
    expect(stillStaff).toMatchObject({ classification: asStaff.classification, classification_withheld: false });
    expect(
      (await api.http.put(`/api/v1/research/${researchId}`).set(auth(staff)).send({ classification_to_clients: true }))
        .status,
    ).toBe(200);
    expect((await asClient()).classification).toBe(asStaff.classification);
  });

  it('takes a T0 set by hand instead, and a thermocouple excluded from a time on no longer counts', async () => {
    expect(
      (await api.http.put(`/api/v1/research/${researchId}`).set(auth(staff)).send({ t0_override: 30.5 })).status,
    ).toBe(200);
    const excluded = await api.http
      .post(`/api/v1/research/${researchId}/exclusions`)
      .set(auth(staff))
      .send({ thermo_id: 2, from_time: 600, reason: 'came loose' });
    expect(excluded.status).toBe(200);
    const c = (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff))).body;
    expect(c).toMatchObject({ t0: 30.5, t0_source: 'override', excluded: [2] });
    // Only T1 counts from 10:00: its rise t/20 − 10.5 > 140 K first at t = 3020 (mean), > 180 K never (≤ 169.5 at 60:00).
    const failure = (criterion: string) => c.failures.find((f: { criterion: string }) => f.criterion === criterion);
    expect(failure('I_mean')).toMatchObject({ time: 3020 });
    expect(failure('I_max')).toBeUndefined();
  });
});
