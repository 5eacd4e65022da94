import type { MqttClient } from 'mqtt';
import request from 'supertest';
import { daqTopic } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { demoConfigText, demoSpecimenPng, specimenProfile, startSimulator } from '@furnace/simulator';
import { apiEnv, type AppProcess, connectPublisher, dropSession, login, missingBuild, startApp, startTestBroker, SUPERUSER, type TestBroker, uniqueId, waitFor } from '@furnace/testing';

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
  thermocouples_out?: (number | null)[];
}

const iso834 = (t: number) => 20 + 345 * Math.log10((8 * Math.max(0, t)) / 60 + 1);
/** A broken thermocouple reads over-range: not a reading. */
const valid = (v: number | null | undefined): v is number => typeof v === 'number' && v >= -273.15 && v <= 3000;
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
const PERIODS = [15, 20, 30, 45, 60, 90, 120, 180, 240, 360];
const DOOR_EW_PERIODS = [20, 30, 60];
const period = (minutes: number, periods = PERIODS) => periods.filter((p) => p <= minutes).pop();

/** The first time from which `over(frame)` holds in two consecutive frames, per entity, earliest over all entities. */
function firstTwoScanFailure(frames: Published[], entities: number[], over: (frame: Published, entity: number) => boolean): { time: number; entity: number } | null {
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
      DEMO: 'false',
    });
    http = request(system.url);
    staff = await login({ http }, SUPERUSER.email, SUPERUSER.password);
    const created = await http.post('/api/v1/research/').set(auth(staff)).send({
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

    const simulator = startSimulator({ url: broker.url, researchId, profile, rate: 0.2, speed: 600, preIgnition: 60, duration: DURATION });
    await simulator.done;
    await simulator.stop();
    const expected = simulator.published;
    await waitFor(`${expected} frames stored and heard`, async () => {
      const history = await http.get(`/api/v1/research/${researchId}/history?from=-3600&points=2`).set(auth(staff));
      return history.body.frames === expected && published.length === expected;
    });
    published.sort((a, b) => a.time - b.time);
    // The engineer saw the cotton pad ignite at 95:00 and stopped the test at 100:00.
    const observe = (body: object) => http.post(`/api/v1/research/${researchId}/observations`).set(auth(staff)).send(body);
    expect((await observe({ time: 5700, kind: 'cotton_pad', visible_to_clients: true })).status).toBe(200);
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

    // d_e: trapezoids under the furnace mean and under ISO 834 from t = 0 to the last frame.
    const fired = published.filter((f) => f.time >= 0);
    let area = 0;
    let areaStd = 0;
    for (let i = 1; i < fired.length; i++) {
      const [a, b] = [fired[i - 1]!, fired[i]!];
      area += ((a.pk! + b.pk!) / 2) * (b.time - a.time);
      areaStd += ((iso834(a.time) + iso834(b.time)) / 2) * (b.time - a.time);
    }
    const dE = ((area - areaStd) / areaStd) * 100;
    expect(c.deviation.d_e).toBeCloseTo(dE, 3);
    expect(c.deviation.tolerance).toBeCloseTo(2.5, 6);
    expect(c.deviation.ok).toBe(Math.abs(dE) <= 2.5);

    // Insulation: two consecutive scans over T0 + 140 K (mean of the valid mean thermocouples),
    // T0 + 180 K (any max thermocouple) and T0 + 360 K (any frame thermocouple, I2).
    const meanOver = firstTwoScanFailure(fired, [0], (f) => {
      const values = meanIds.map((i) => f.thermocouples_out![i]).filter(valid);
      return values.length > 0 && mean(values) > t0 + 140;
    });
    const maxOver = firstTwoScanFailure(fired, maxIds, (f, i) => valid(f.thermocouples_out![i]) && f.thermocouples_out![i]! > t0 + 180);
    const frameOver = firstTwoScanFailure(fired, frameIds, (f, i) => valid(f.thermocouples_out![i]) && f.thermocouples_out![i]! > t0 + 360);
    const failure = (criterion: string) =>
      c.failures.filter((f: { criterion: string }) => f.criterion === criterion).sort((a: { time: number }, b: { time: number }) => a.time - b.time)[0];
    expect(meanOver && maxOver && frameOver).toBeTruthy();
    expect(failure('I_mean')).toMatchObject({ time: meanOver!.time });
    expect(failure('I_max')).toMatchObject({ time: maxOver!.time, thermo_id: maxOver!.entity + 1 });
    expect(failure('I_frame')).toMatchObject({ time: frameOver!.time, thermo_id: frameOver!.entity + 1 });

    // The broken thermocouple: the ingest kept its frames, nulled the channel and flagged it.
    const brokenAt = published.find((f) => f.thermocouples_out![profile.failing.thermo_id - 1] === 3276.7)!.time;
    expect(c.suspects).toEqual(expect.arrayContaining([{ thermo_id: profile.failing.thermo_id, reason: 'fault', time: brokenAt }]));

    // E at the cotton pad (95:00); I at the first insulation failure, capped at E; W never (radiation
    // stays under 15 kW/m²), so it holds to E. Completed minutes, then the largest class period; a
    // door's insulation class names its I1/I2 (EN 13501-2 §7.5.5).
    expect(published.every((f) => !valid(f.radiance) || f.radiance <= 15)).toBe(true);
    const E = Math.floor(5700 / 60);
    const I = Math.min(Math.floor(Math.min(meanOver!.time, maxOver!.time, frameOver!.time) / 60), E);
    expect(c.criteria.E).toMatchObject({ time: 5700, minutes: E, reached: true });
    expect(c.criteria.I).toMatchObject({ minutes: I, reached: true });
    expect(c.classification).toBe(`E ${period(E)}, EI2 ${period(I)}, EW ${period(E, DOOR_EW_PERIODS)}`);
    console.log(
      `simulated door: T0 ${t0.toFixed(2)} °C, d_e ${dE.toFixed(2)} %, I_mean ${meanOver!.time} s, I_max ${maxOver!.time} s (T${maxOver!.entity + 1}), ` +
        `I_frame ${frameOver!.time} s, class "${c.classification}"`,
    );
  });
});
