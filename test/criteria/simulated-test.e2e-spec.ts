import type { MqttClient } from 'mqtt';
import request from 'supertest';
import { daqTopic } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { demoConfigText, demoSpecimenPng, specimenProfile, startSimulator } from '@furnace/simulator';
import {
  apiEnv,
  type AppProcess,
  connectPublisher,
  dropSession,
  login,
  missingBuild,
  startApp,
  startTestBroker,
  SUPERUSER,
  type TestBroker,
  uniqueId,
  waitFor,
} from '@furnace/testing';

/*
 * The simulator's EI2 60 door test streamed over real MQTT (Mosquitto, or an embedded broker) into the
 * running system — the built standalone app (apps/standalone/dist/main.js: ingest and API in one
 * process) on PostgreSQL (or an embedded PGlite) — at 600× speed, then read back from
 * GET /research/{id}/criteria. Every expected number is computed here, from the frames as they were
 * published (a second MQTT client listens on the topic), by the rules of EN 1363-1 / EN 1634-1 written
 * out plainly below: an independent computation, not the engine's output on the same data.
 */

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Published {
  time: number;
  pk?: number | null;
  radiance?: number | null;
  pressure?: number | null;
  thermocouples_out?: (number | null)[];
}

const iso834 = (t: number) => 20 + 345 * Math.log10((8 * Math.max(0, t)) / 60 + 1);
/** A broken thermocouple reads over-range: not a reading. */
const valid = (v: number | null | undefined): v is number => typeof v === 'number' && v >= -273.15 && v <= 3000;
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
const DOOR_PERIODS = [15, 20, 30, 45, 60, 90, 120, 180, 240];
const DOOR_EW_PERIODS = [20, 30, 60];
const period = (minutes: number, periods: number[]) => periods.filter((p) => p <= minutes).pop();

/**
 * d_e at the last frame and the periods outside EN 1363-1 §5.1.2's tolerance: trapezoids under the furnace
 * mean and under ISO 834 from t = 0 (frames from t = 0), each frame after 5 min against the tolerance.
 */
function deviationByHand(fired: Published[]): { dE: number; periods: { from: number; to: number }[] } {
  let area = 0;
  let areaStd = 0;
  let dE = 0;
  const periods: { from: number; to: number }[] = [];
  let outside = false;
  for (let i = 1; i < fired.length; i++) {
    const [a, b] = [fired[i - 1]!, fired[i]!];
    area += ((a.pk! + b.pk!) / 2) * (b.time - a.time);
    areaStd += ((iso834(a.time) + iso834(b.time)) / 2) * (b.time - a.time);
    dE = ((area - areaStd) / areaStd) * 100;
    const m = b.time / 60;
    const tolerance =
      m <= 5 ? null : m <= 10 ? 15 : m <= 30 ? 15 - 0.5 * (m - 10) : m <= 60 ? 5 - 0.083 * (m - 30) : 2.5;
    const out = tolerance !== null && Math.abs(dE) > tolerance;
    if (out && outside) periods[periods.length - 1]!.to = b.time;
    else if (out) periods.push({ from: b.time, to: b.time });
    outside = out;
  }
  return { dE, periods };
}

/** The first time from which `over(frame)` holds in two consecutive frames, per entity, earliest over all entities. */
function firstTwoScanFailure(
  frames: Published[],
  entities: number[],
  over: (frame: Published, entity: number) => boolean,
): { time: number; entity: number } | null {
  let best: { time: number; entity: number } | null = null;
  for (const entity of entities) {
    for (let i = 0; i + 1 < frames.length; i++) {
      if (over(frames[i]!, entity) && over(frames[i + 1]!, entity)) {
        if (!best || frames[i]!.time < best.time) best = { time: frames[i]!.time, entity };
        break;
      }
    }
  }
  return best;
}

describe('criteria of a simulated door test streamed over MQTT into the running system', () => {
  let db: TestDatabase;
  let broker: TestBroker;
  let system: AppProcess | undefined;
  let http: ReturnType<typeof request>;
  let listener: MqttClient;
  const clientId = uniqueId('criteria-e2e-ingest');
  let staff: string;
  let researchId: string;
  const published: Published[] = [];
  const profile = specimenProfile('door-ei2-60')!;
  const DURATION = 100 * 60;

  beforeAll(async () => {
    const missing = missingBuild(['standalone']);
    if (missing) throw new Error(missing);
    [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
    system = await startApp('standalone', {
      ...apiEnv({ databaseUrl: db.url, redisUrl: '' }, SUPERUSER),
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: clientId,
      MQTT_SHARED_SUBSCRIPTION: broker.shared ? 'true' : 'false',
      // A group of its own: a persistent session another run left in the default group on the machine's
      // Mosquitto would be given every other frame (README, "Scaling": a stopped ingest keeps its share).
      MQTT_SHARED_GROUP: clientId,
      DEMO: 'false',
    });
    http = request(system.url);
    staff = await login({ http }, SUPERUSER.email, SUPERUSER.password);
    const created = await http
      .post('/api/v1/research/')
      .set(auth(staff))
      .send({
        name: 'Drzwi EI2 60 (symulacja)',
        start_at: new Date(Date.now() - 60_000).toISOString(),
        end_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
        standard: 'EN_1634_1',
        insulation: 'I2',
        planned_duration_min: 60,
      });
    expect(created.status).toBe(200);
    researchId = created.body.id;
    const upload = await http
      .post('/api/v1/research/thermo')
      .set(auth(staff))
      .field('research_id', researchId)
      .attach('image_file', Buffer.from(demoSpecimenPng()), 'door.png')
      .attach('config_file', Buffer.from(demoConfigText(), 'utf8'), 'door.txt');
    expect(upload.status).toBe(200);
    listener = await connectPublisher(broker.url);
    listener.on('message', (_topic, payload) => published.push(JSON.parse(payload.toString()) as Published));
    await listener.subscribeAsync(daqTopic(researchId), { qos: 1 });

    const simulator = startSimulator({
      url: broker.url,
      researchId,
      profile,
      rate: 0.2,
      speed: 600,
      preIgnition: 60,
      duration: DURATION,
    });
    await simulator.done;
    await simulator.stop();
    const expected = simulator.published;
    await waitFor(`${expected} frames stored and heard`, async () => {
      const history = await http.get(`/api/v1/research/${researchId}/history?from=-3600&points=2`).set(auth(staff));
      return history.body.frames === expected && published.length === expected;
    });
    published.sort((a, b) => a.time - b.time);
    // The engineer saw the cotton pad ignite at 95:00 (after the insulation failure: it no longer counts,
    // EN 1363-1 §11.2), a 25 mm gap open at 97:00 (kept from the clients), and stopped the test at 100:00.
    const observe = (body: object) =>
      http.post(`/api/v1/research/${researchId}/observations`).set(auth(staff)).send(body);
    expect((await observe({ time: 5700, kind: 'cotton_pad', visible_to_clients: true })).status).toBe(200);
    expect((await observe({ time: 5820, kind: 'gap_25mm', visible_to_clients: false })).status).toBe(200);
    expect((await observe({ kind: 'test_stopped' })).body.time).toBe(DURATION);
  });
  afterAll(async () => {
    await listener?.endAsync();
    await system?.stop();
    if (broker?.shared) await dropSession(broker.url, clientId).catch(() => undefined);
    await broker?.stop();
    await db?.drop();
  });

  it('reads T0, d_e, the exceedances and the class that the published frames give', async () => {
    const res = await http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff));
    expect(res.status).toBe(200);
    const c = res.body;

    const ids = (kinds: string[]) => profile.channels.flatMap((ch, i) => (kinds.includes(ch.type_name) ? [i] : []));
    const meanIds = ids(['Tśr i Tmax']);
    const maxIds = ids(['Tśr i Tmax', 'Tmax']);
    const frameIds = ids(['Tmax ościeżnicy']);

    // T0: each mean thermocouple averaged over the 60 s before ignition, then their mean.
    const before = published.filter((f) => f.time >= -60 && f.time < 0);
    expect(before.length).toBe(12);
    const perThermocouple = meanIds.map((i) => mean(before.map((f) => f.thermocouples_out![i]).filter(valid)));
    const t0 = mean(perThermocouple);
    expect(c.t0).toBeCloseTo(t0, 3);
    expect(c.t0_source).toBe('auto');
    expect(c.limits.max.text).toBe(`T0 + 180 K = ${(t0 + 180).toFixed(1)} °C`);

    // d_e: trapezoids under the furnace mean and under ISO 834 from t = 0 to the last frame; after 5 min
    // each frame against EN 1363-1 §5.1.2's tolerance, and the periods outside it.
    const fired = published.filter((f) => f.time >= 0);
    expect(fired[0]!.time).toBe(0);
    const { dE, periods } = deviationByHand(fired);
    expect(c.deviation.d_e).toBeCloseTo(dE, 3);
    expect(c.deviation.tolerance).toBeCloseTo(2.5, 6);
    expect(c.deviation.ok).toBe(Math.abs(dE) <= 2.5);
    expect(c.deviation.periods.map((p: { from: number; to: number }) => ({ from: p.from, to: p.to }))).toEqual(periods);
    expect(c.deviation.conforming).toBe(periods.length === 0);

    // Insulation: two consecutive scans over T0 + 140 K (mean of the valid mean thermocouples),
    // T0 + 180 K (any max thermocouple) and T0 + 360 K (any frame thermocouple, I2).
    const meanOver = firstTwoScanFailure(fired, [0], (f) => {
      const values = meanIds.map((i) => f.thermocouples_out![i]).filter(valid);
      return values.length > 0 && mean(values) > t0 + 140;
    });
    const maxOver = firstTwoScanFailure(
      fired,
      maxIds,
      (f, i) => valid(f.thermocouples_out![i]) && f.thermocouples_out![i]! > t0 + 180,
    );
    const frameOver = firstTwoScanFailure(
      fired,
      frameIds,
      (f, i) => valid(f.thermocouples_out![i]) && f.thermocouples_out![i]! > t0 + 360,
    );
    const failure = (criterion: string) =>
      c.failures
        .filter((f: { criterion: string }) => f.criterion === criterion)
        .sort((a: { time: number }, b: { time: number }) => a.time - b.time)[0];
    expect(meanOver && maxOver && frameOver).toBeTruthy();
    expect(failure('I_mean')).toMatchObject({ time: meanOver!.time });
    expect(failure('I_max')).toMatchObject({ time: maxOver!.time, thermo_id: maxOver!.entity + 1 });
    expect(failure('I_frame')).toMatchObject({ time: frameOver!.time, thermo_id: frameOver!.entity + 1 });

    // The broken thermocouple: the ingest kept its frames, nulled the channel and flagged it.
    const brokenAt = published.find((f) => f.thermocouples_out![profile.failing.thermo_id - 1] === 3276.7)!.time;
    expect(c.suspects).toEqual(
      expect.arrayContaining([{ thermo_id: profile.failing.thermo_id, reason: 'fault', time: brokenAt }]),
    );

    // E at the gap gauge (97:00): the cotton pad at 95:00 came after I; I at the first insulation failure,
    // capped at E; W never (radiation stays under 15 kW/m²), so it holds to E. Completed minutes, then the
    // largest period of a door's own lists (EN 13501-2 §7.5.5: E and EI to 240, EW 20, 30, 60); a door's
    // insulation class names its I1/I2.
    const firstI = Math.min(meanOver!.time, maxOver!.time, frameOver!.time);
    expect(firstI).toBeLessThan(5700);
    expect(published.every((f) => !valid(f.radiance) || f.radiance <= 15)).toBe(true);
    const E = Math.floor(5820 / 60);
    const I = Math.min(Math.floor(firstI / 60), E);
    expect(c.criteria.E).toMatchObject({ time: 5820, minutes: E, reached: true });
    expect(c.criteria.I).toMatchObject({ minutes: I, reached: true, measured: true });
    expect(c.criteria.W).toMatchObject({ measured: true, deemed: false });
    expect(c.classification).toBe(
      `E ${period(E, DOOR_PERIODS)}, EI2 ${period(I, DOOR_PERIODS)}, EW ${period(E, DOOR_EW_PERIODS)}`,
    );
    console.log(
      `simulated door: T0 ${t0.toFixed(2)} °C, d_e ${dE.toFixed(2)} %, I_mean ${meanOver!.time} s, I_max ${maxOver!.time} s (T${maxOver!.entity + 1}), ` +
        `I_frame ${frameOver!.time} s, class "${c.classification}"`,
    );
  });

  it('gives an invited client the same criteria as staff, though the gap that ended E is hidden from them', async () => {
    const invited = await http
      .post('/api/v1/research/emails')
      .set(auth(staff))
      .send({ research_id: researchId, email: 'client-e2e@example.com' });
    expect(invited.status).toBe(200);
    const token = await http.post(`/api/v1/research/${researchId}/viewer-token`).send({ code: invited.body.id });
    expect(token.status).toBe(200);
    const asClient = await http.get(`/api/v1/research/${researchId}/criteria`).set(auth(token.body.access_token));
    const asStaff = await http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff));
    expect(asClient.status).toBe(200);
    expect(asClient.body.criteria.E).toMatchObject({ time: 5820, reached: true });
    expect(asClient.body).toEqual(asStaff.body);
    const seen = await http.get(`/api/v1/research/${researchId}/observations`).set(auth(token.body.access_token));
    // The test_stopped observation recorded without visible_to_clients is hidden too.
    expect(seen.body.data.map((o: { kind: string }) => o.kind)).toEqual(['cotton_pad']);
  });

  it('judges a wall test whose DAQ drops every other reading of a thermocouple, whose furnace leaves its tolerance and whose pressure leaves its band', async () => {
    const created = await http
      .post('/api/v1/research/')
      .set(auth(staff))
      .send({
        name: 'Ściana nienośna (ręcznie)',
        start_at: new Date(Date.now() - 60_000).toISOString(),
        end_at: new Date(Date.now() + 3600_000).toISOString(),
        standard: 'EN_1364_1',
        pressure_target_pa: 20,
        t0_override: 20,
      });
    expect(created.status).toBe(200);
    const wall = created.body.id as string;
    const config = demoConfigText().split('\n').slice(0, 3).join('\n');
    const upload = await http
      .post('/api/v1/research/thermo')
      .set(auth(staff))
      .field('research_id', wall)
      .attach('image_file', Buffer.from(demoSpecimenPng()), 'wall.png')
      .attach('config_file', Buffer.from(config, 'utf8'), 'wall.txt');
    expect(upload.status).toBe(200);
    // Every 10 s to 15:00: the furnace at 1.2·ISO 834 to 12:00 then 0.8·ISO 834; T2 ('Tśr i Tmax') at 250 °C
    // from 10:00 but only every other scan (null between: a loose connector); the pressure 20 Pa except
    // 27 Pa 8:00–8:30 (8:10 missing), 24 Pa at 9:00, 24 Pa 12:00–12:20 and 16 Pa at 15:00.
    const pressure = (t: number): number | null =>
      t === 490 ? null : t >= 480 && t <= 510 ? 27 : t === 540 ? 24 : t >= 720 && t <= 740 ? 24 : t === 900 ? 16 : 20;
    const frames: Published[] = [];
    for (let t = 0; t <= 900; t += 10) {
      frames.push({
        time: t,
        pk: (t <= 720 ? 1.2 : 0.8) * iso834(t),
        thermocouples_out: [30, t < 600 ? 30 : t % 20 === 0 ? 250 : null],
        pressure: pressure(t),
      });
    }
    for (const frame of frames) await listener.publishAsync(daqTopic(wall), JSON.stringify(frame), { qos: 1 });
    await waitFor(
      'the wall frames stored',
      async () =>
        (await http.get(`/api/v1/research/${wall}/history?points=2`).set(auth(staff))).body.frames === frames.length,
    );
    const c = (await http.get(`/api/v1/research/${wall}/criteria`).set(auth(staff))).body;

    // T0 set by hand at 20 °C: the max limit 200 °C. T2 over it at 10:00, missing at 10:10, over at 10:20:
    // two consecutive scans of T2, the failure at 10:00 (EN 1363-1 §11.3; a missing scan is no scan).
    expect(c.failures).toEqual([
      { criterion: 'I_max', time: 600, interval_from: null, thermo_id: 2, type_name: 'Tśr i Tmax' },
    ]);
    // d_e and its periods by hand (EN 1363-1 §5.1.2).
    const { dE, periods } = deviationByHand(frames);
    expect(periods.length).toBeGreaterThanOrEqual(1);
    expect(periods[0]!.from).toBe(310);
    expect(c.deviation.d_e).toBeCloseTo(dE, 6);
    expect(c.deviation.periods.map((p: { from: number; to: number }) => ({ from: p.from, to: p.to }))).toEqual(periods);
    expect(c.deviation.conforming).toBe(false);
    // The pressure by EN 1363-1 §5.2.2: ±5 Pa from 5:00 (27 Pa is +7), ±3 Pa from 10:00 (24 Pa is +4, 16 Pa −4).
    expect(c.pressure).toMatchObject({ target: 20, value: 16, tolerance: 3, ok: false, conforming: false });
    expect(c.pressure.periods).toEqual([
      { from: 480, to: 510, open: false, worst: 7, worst_tolerance: 5, worst_time: 480 },
      { from: 720, to: 740, open: false, worst: 4, worst_tolerance: 3, worst_time: 720 },
      { from: 900, to: 900, open: true, worst: -4, worst_tolerance: 3, worst_time: 900 },
    ]);
    // No radiometer: W deemed met while I holds (EN 13501-2), no EW; a wall's own lists (EN 13501-2 §7.5.2):
    // E 15:00 → no E period under 20; EI 10:00 → none under 15.
    expect(c.criteria.W).toMatchObject({ measured: false, deemed: true });
    expect(c.classification).toBe('');
  });

  it('classifies a door whose thermocouples name their zones for I1 and I2 at once, with d_e from t = 0 though the first frame came at 1:00', async () => {
    const created = await http
      .post('/api/v1/research/')
      .set(auth(staff))
      .send({
        name: 'Drzwi EI1/EI2 (strefy)',
        start_at: new Date(Date.now() - 60_000).toISOString(),
        end_at: new Date(Date.now() + 3600_000).toISOString(),
        standard: 'EN_1634_1',
        insulation: 'I2',
        t0_override: 20,
      });
    expect(created.status).toBe(200);
    const door = created.body.id as string;
    // T1 mean; T2 leaf in zone I1, T3 leaf in zone I2; T4 frame in zone I1, T5 frame in zone I2.
    const config = [
      'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height;zone',
      '1;T1;Tśr i Tmax;#E53935;215;110;12;229;84;58;22;',
      '2;T2;Tmax;#1E88E5;320;110;12;334;84;58;22;I1',
      '3;T3;Tmax;#1E88E5;425;110;12;439;84;58;22;I2',
      '4;T4;Tmax ościeżnicy;#43A047;215;205;12;229;179;58;22;I1',
      '5;T5;Tmax ościeżnicy;#43A047;320;205;12;334;179;58;22;I2',
    ].join('\n');
    const upload = await http
      .post('/api/v1/research/thermo')
      .set(auth(staff))
      .field('research_id', door)
      .attach('image_file', Buffer.from(demoSpecimenPng()), 'door.png')
      .attach('config_file', Buffer.from(config, 'utf8'), 'door.txt');
    expect(upload.status).toBe(200);
    // The furnace read 25 °C before ignition (−10 s); the first frame after it came at 1:00, then every 10 s
    // to 70:00, the furnace on ISO 834. T2 (I1 leaf) at 250 °C from 25:00, T3 (I2 leaf) from 50:00, T4 (I1
    // frame) 250 °C from 40:00 (over I1's 200 °C), T5 (I2 frame) 250 °C from 40:00 (under I2's 380 °C);
    // radiation 1 kW/m².
    const frames: Published[] = [{ time: -10, pk: 25, radiance: 0, thermocouples_out: [20, 20, 20, 20, 20] }];
    for (let t = 60; t <= 4200; t += 10) {
      frames.push({
        time: t,
        pk: iso834(t),
        radiance: 1,
        thermocouples_out: [30, t >= 1500 ? 250 : 30, t >= 3000 ? 250 : 30, t >= 2400 ? 250 : 30, t >= 2400 ? 250 : 30],
      });
    }
    for (const frame of frames) await listener.publishAsync(daqTopic(door), JSON.stringify(frame), { qos: 1 });
    await waitFor(
      'the door frames stored',
      async () =>
        (await http.get(`/api/v1/research/${door}/history?from=-3600&points=2`).set(auth(staff))).body.frames ===
        frames.length,
    );
    const stop = await http
      .post(`/api/v1/research/${door}/observations`)
      .set(auth(staff))
      .send({ time: 4200, kind: 'test_stopped' });
    expect(stop.status).toBe(200);
    const c = (await http.get(`/api/v1/research/${door}/criteria`).set(auth(staff))).body;

    // I1 on T2 and T4 (leaf 180 K, frame 180 K above T0 = 20 °C: 200 °C): first at 25:00. I2 on T3 and T5
    // (leaf 200 °C, frame 380 °C): T3 at 50:00. E and W held to the stop at 70:00. EN 13501-2 §7.5.5, a
    // door's lists: E 70 → 60, EI1 25 → 20, EI2 50 → 45, EW 70 → 60.
    expect(
      c.failures.map((f: { criterion: string; thermo_id: number; time: number; insulation_class?: string }) => [
        f.criterion,
        f.thermo_id,
        f.time,
        f.insulation_class,
      ]),
    ).toEqual([
      ['I_max', 2, 1500, 'I1'],
      ['I_frame', 4, 2400, 'I1'],
      ['I_max', 3, 3000, 'I2'],
    ]);
    expect(c.insulation_classes.I1).toMatchObject({ time: 1500, minutes: 25 });
    expect(c.insulation_classes.I2).toMatchObject({ time: 3000, minutes: 50 });
    expect(c.classification).toBe('E 60, EI1 20, EI2 45, EW 60');
    // d_e from t = 0: the first trapezoid spans 0–60 s with the furnace at its 25 °C before ignition
    // against the curve's 20 °C, then the trapezoids of the frames (EN 1363-1 §5.1.2).
    const fired = frames.filter((f) => f.time >= 0);
    let area = ((25 + fired[0]!.pk!) / 2) * 60;
    let areaStd = ((20 + iso834(60)) / 2) * 60;
    for (let i = 1; i < fired.length; i++) {
      const [a, b] = [fired[i - 1]!, fired[i]!];
      area += ((a.pk! + b.pk!) / 2) * (b.time - a.time);
      areaStd += ((iso834(a.time) + iso834(b.time)) / 2) * (b.time - a.time);
    }
    expect(c.deviation.d_e).toBeCloseTo(((area - areaStd) / areaStd) * 100, 4);
  });
});
