// "No caller can take the server hostage", the history: one response holds at most 300 000 thermocouple
// values (points × thermo_ids) and 300 thermocouples; above, a 422 naming the parameter and the cap, before
// anything is read. What the dashboard asks for (apps/dashboard/src/features/history) is served.
import { login, SUPERUSER } from '@furnace/testing';
import { addClient, createResearch } from '../factories';
import { auth, startTestApi, type TestApi } from '../harness';
import { viewerTokenFor } from '../live-support';

const CHANNELS = 320;
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');

describe('security: the size of one history response is capped', () => {
  let api: TestApi;
  let researchId: string;
  let client: string;

  beforeAll(async () => {
    api = await startTestApi();
    const admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (await createResearch(api, admin)).id;
    client = viewerTokenFor(api, (await addClient(api, admin, researchId, 'viewer@example.com')).id, researchId);
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, pk, thermocouples)
       SELECT r.id, g, r.start_at + g * INTERVAL '1 second', 20 + g,
              (SELECT array_agg((20 + g + c)::real ORDER BY c) FROM generate_series(1, $2::int) c)
       FROM research r, generate_series(0, 59) g WHERE r.id = $1`,
      [researchId, CHANNELS],
    );
  });
  afterAll(() => api?.close());

  const history = (query: string) => api.http.get(`/api/v1/research/${researchId}/history?${query}`).set(auth(client));

  it('refuses what the review asked for (10 000 points of 1024 thermocouples) with a 422 naming thermo_ids and the caps', async () => {
    const res = await history(`points=10000&thermo_ids=${ids(1024)}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        {
          loc: ['query', 'thermo_ids'],
          msg: 'thermo_ids must contain no more than 300 elements',
          type: 'arrayMaxSize',
        },
        {
          loc: ['query', 'thermo_ids'],
          msg: 'points × thermo_ids must be at most 300000 values per request (asked 10000 × 1024 = 10240000): ask for fewer points or fewer thermocouples',
          type: 'max_history_values',
        },
      ]),
    );
  });

  it.each([
    ['10 000 points of 31 thermocouples', `points=10000&thermo_ids=${ids(31)}`, '10000 × 31 = 310000'],
    ['1000 points of 301 thermocouples', `points=1000&thermo_ids=${ids(301)}`, '1000 × 301 = 301000'],
    ['the default 1000 points of 320 thermocouples', `thermo_ids=${ids(320)}`, '1000 × 320 = 320000'],
    ['2000 points of 151 thermocouples, one repeated', `points=2000&thermo_ids=${ids(151)},5`, '2000 × 151 = 302000'],
  ])('refuses %s', async (_name, query, asked) => {
    const res = await history(query);
    expect(res.status).toBe(422);
    const details = res.body.detail as { loc: string[]; msg: string }[];
    expect(details.every((d) => d.loc.join('.') === 'query.thermo_ids')).toBe(true);
    expect(details.map((d) => d.msg)).toContainEqual(
      expect.stringContaining(`at most 300000 values per request (asked ${asked})`),
    );
  });

  it.each([
    [
      "the history page's overview with every thermocouple of a 300-channel test ticked",
      `points=1000&thermo_ids=${ids(300)}`,
      300,
    ],
    ['the zoomed chart (800 points) of 300 thermocouples', `points=800&thermo_ids=${ids(300)}`, 300],
    ['a full-resolution refinement (10 000 points, no thermocouple)', 'points=10000&from=0&to=59', 0],
    ['10 000 points of 30 thermocouples', `points=10000&thermo_ids=${ids(30)}`, 30],
    ['the live curves (no thermocouple, default points)', '', 0],
  ])('serves %s', async (_name, query, thermocouples) => {
    const res = await history(query);
    expect(res.status).toBe(200);
    expect((res.body.series as { kind: string }[]).filter((s) => s.kind === 'thermocouple')).toHaveLength(
      thermocouples,
    );
  });
});
