import { randomUUID } from 'node:crypto';
import { formatThermoConfig, parseThermoConfig, type ThermoMarker } from '@furnace/contracts';
import { connectViewer, streamUrl, type TestViewer, waitFor } from '@furnace/testing';
import {
  addClient,
  configText,
  createResearch,
  SPECIMEN_PNG,
  uploadConfig,
  VALID_CONFIG,
  viewerToken,
} from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

/*
 * PUT /research/thermo/{id}/config: the thermocouple editor's save. It takes a config file and goes
 * through the same parser and checks as an upload (docs/behaviour.md §4.8).
 */

type MarkerRow = ThermoMarker & { id: string; config_id: string };
/** A marker as the file describes it (without the ids the database gives it). */
const placed = ({ id: _id, config_id: _config, ...marker }: MarkerRow): ThermoMarker => marker;

const EDITED = configText([
  '1;T1;Tśr i Tmax;#E53935;40;60;14;58;40;64;24',
  '2;Drzwi lewe;TDin;#3949AB;210,5;220;16;230;198;70;26',
  '5;T5;T;#FB8C00;600;440;20;560;400;64;24',
]);

/** The header with the optional 12th column, the thermocouple's insulation zone. */
const ZONED_HEADER = `${configText([]).trimEnd()};zone`;
const zonedConfig = (rows: string[]): string => `${ZONED_HEADER}\r\n${configText(rows, false)}`;

describe('the editor saves a config file over a config', () => {
  let api: TestApi;
  let staff: string;
  const viewers: TestViewer[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    staff = (await signUpUser(api)).token;
  });
  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await api?.close();
  });

  const markersOf = async (configId: string): Promise<ThermoMarker[]> =>
    (
      (await api.http.get(`/api/v1/research/thermo/${configId}/coords`).set(auth(staff)).expect(200)).body
        .data as MarkerRow[]
    ).map(placed);
  const fileOf = async (configId: string): Promise<string> => {
    const res = await api.http.get(`/api/v1/research/thermo/${configId}/config`).set(auth(staff)).buffer(true);
    return res.text ?? (res.body as Buffer).toString('utf8');
  };
  const save = (configId: string, text: string | Buffer, token = staff, name = 'edited.txt') =>
    api.http
      .put(`/api/v1/research/thermo/${configId}/config`)
      .set(auth(token))
      .attach('config_file', Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), name);

  it('replaces the markers with the ones the file places, exactly as uploading that file would', async () => {
    const r = await createResearch(api, staff);
    const config = (await uploadConfig(api, staff, r.id).expect(200)).body;

    const res = await save(config.id, EDITED);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: config.id,
      research_id: r.id,
      config_filename: 'edited.txt',
      image_filename: 'specimen.png',
    });

    const uploaded = (await uploadConfig(api, staff, r.id, SPECIMEN_PNG, EDITED).expect(200)).body;
    expect(await markersOf(config.id)).toEqual(await markersOf(uploaded.id));
    expect((await markersOf(config.id)).map((m) => [m.thermo_id, m.name, m.item_x])).toEqual([
      [1, 'T1', 40],
      [2, 'Drzwi lewe', 210.5],
      [5, 'T5', 600],
    ]);
    // The stored file is the one saved: downloading it gives what was written.
    expect(await fileOf(config.id)).toBe(EDITED);
    // The research's other config is untouched.
    expect((await api.http.get(`/api/v1/research/${r.id}/thermo/coords`).set(auth(staff))).body.data).toHaveLength(6);
  });

  it('round-trips: the downloaded file uploads back to identical markers', async () => {
    const r = await createResearch(api, staff);
    const config = (await uploadConfig(api, staff, r.id).expect(200)).body;
    const parsed = parseThermoConfig(Buffer.from(EDITED));
    if (!parsed.ok) throw new Error('the test config does not parse');
    // What the editor sends: the markers written by the shared serialiser.
    await save(config.id, formatThermoConfig(parsed.markers)).expect(200);

    const downloaded = await fileOf(config.id);
    const again = (
      await uploadConfig(api, staff, r.id, SPECIMEN_PNG, downloaded, { image: 'a.png', config: 'pobrany.txt' }).expect(
        200,
      )
    ).body;
    expect(await markersOf(again.id)).toEqual(await markersOf(config.id));
    expect(await markersOf(config.id)).toEqual(parsed.markers);
  });

  it('refuses a bad file naming each line and field, and changes nothing', async () => {
    const r = await createResearch(api, staff);
    const config = (await uploadConfig(api, staff, r.id).expect(200)).body;
    const before = await markersOf(config.id);

    const bad = configText([
      '1;T1;Tśr i Tmax;#E53935;40;60;14;58;40;64;24',
      '2;T2;Tmaks;#E53935;100;100;14;120;80;64;24',
      '3;T3;Tmax;#E53935;630;100;14;120;80;64;24',
      '1;T4;Tmax;#E5393;100;100;14;120;80;64;24',
    ]);
    const res = await save(config.id, bad);
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: (string | number)[] }) => d.loc.slice(2).join(':'))).toEqual([
      '3:type_name',
      '4:item_x',
      '5:thermo_id',
      '5:color_hex',
    ]);
    expect(res.body.detail[0].msg).toBe('line 3, type_name: "Tmaks" is not one of the 12 measurement types');
    // 630 + 14 reaches outside the stored 640 px photo: the photo's own size is checked, as on upload.
    expect(res.body.detail[1].msg).toBe('line 4, item_x: marker square 630..644 reaches outside the photo (width 640)');

    expect(await markersOf(config.id)).toEqual(before);
    expect(await fileOf(config.id)).toBe(VALID_CONFIG);
  });

  it("carries each thermocouple's insulation zone (EN 1634-1) from an uploaded file to the markers, and the editor's save too", async () => {
    const r = await createResearch(api, staff);
    const zoned = zonedConfig([
      '1;T1;Tśr i Tmax;#E53935;40;60;14;58;40;64;24;',
      '2;Skrzydło 100 mm;Tmax;#1E88E5;100;60;14;120;40;64;24;I2',
      '3;Skrzydło 25 mm;Tmax;#1E88E5;200;60;14;220;40;64;24;I1',
      '4;Ościeżnica;Tmax ościeżnicy;#43A047;300;60;14;320;40;64;24;i2',
    ]);
    const config = (await uploadConfig(api, staff, r.id, SPECIMEN_PNG, zoned).expect(200)).body;
    const zones = (markers: { thermo_id: number; zone: string | null }[]) => markers.map((m) => [m.thermo_id, m.zone]);
    const expected = [
      [1, null],
      [2, 'I2'],
      [3, 'I1'],
      [4, 'I2'],
    ];
    expect(zones(await markersOf(config.id))).toEqual(expected);
    expect(
      zones((await api.http.get(`/api/v1/research/${r.id}/thermo/coords`).set(auth(staff)).expect(200)).body.data),
    ).toEqual(expected);

    // A file of 11 columns, as written before zones: every thermocouple counts for both classes.
    const old = (await uploadConfig(api, staff, r.id, SPECIMEN_PNG, EDITED).expect(200)).body;
    expect((await markersOf(old.id)).map((m) => m.zone)).toEqual([null, null, null]);

    // The editor's save takes the zones; written back they make the same markers.
    const parsed = parseThermoConfig(Buffer.from(zoned));
    if (!parsed.ok) throw new Error('the test config does not parse');
    const edited = parsed.markers.map((m) => (m.thermo_id === 1 ? { ...m, zone: 'I1' as const } : m));
    await save(old.id, formatThermoConfig(edited)).expect(200);
    expect(await markersOf(old.id)).toEqual(edited);
    expect((await fileOf(old.id)).split('\n')[0]).toBe(ZONED_HEADER);

    // A bad zone is refused by line and field, and changes nothing.
    const bad = await save(old.id, zonedConfig(['1;T1;Tmax;#E53935;40;60;14;58;40;64;24;I3']));
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      {
        loc: ['body', 'config_file', 2, 'zone'],
        msg: 'line 2, zone: "I3" is not an insulation zone (I1, I2, or empty for both)',
        type: 'thermo_config',
      },
    ]);
    expect(await markersOf(old.id)).toEqual(edited);
  });

  it('refuses a missing file, an empty one and one of another kind', async () => {
    const r = await createResearch(api, staff);
    const config = (await uploadConfig(api, staff, r.id).expect(200)).body;
    const none = await api.http.put(`/api/v1/research/thermo/${config.id}/config`).set(auth(staff)).field('x', '1');
    expect(none.status).toBe(400);
    const missing = await api.http.put(`/api/v1/research/thermo/${config.id}/config`).set(auth(staff)).send({});
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'config_file'], msg: 'config_file is required', type: 'missing' },
    ]);
    const empty = await save(config.id, '');
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].msg).toBe('the file has no thermocouple lines');
    const png = await save(config.id, SPECIMEN_PNG);
    expect(png.status).toBe(422);
    const big = await save(config.id, Buffer.alloc(600 * 1024, 0x20));
    expect(big.status).toBe(413);
    expect(big.body.detail).toBe('config_file is larger than 512 KiB');
    expect(await fileOf(config.id)).toBe(VALID_CONFIG);
  });

  it('tells the research live viewers to refetch the configs (UPDATE THERMOCOUPLE)', async () => {
    const r = await createResearch(api, staff);
    const config = (await uploadConfig(api, staff, r.id).expect(200)).body;
    const other = await createResearch(api, staff);
    const viewer = await connectViewer(streamUrl(api, r.id, { token: staff }));
    const otherViewer = await connectViewer(streamUrl(api, other.id, { token: staff }));
    viewers.push(viewer, otherViewer);

    await save(config.id, EDITED).expect(200);
    await waitFor('UPDATE THERMOCOUPLE', () =>
      viewer.messages.some((m) => m.event === 'UPDATE' && m.data === 'THERMOCOUPLE'),
    );
    // A refused file tells nobody anything; nor does a save tell another research's viewers.
    await save(config.id, 'nonsense').expect(422);
    viewer.ws.send('STATUS');
    await waitFor('STATUS after the refused save', () => viewer.messages.some((m) => m.event === 'STATUS'));
    expect(viewer.messages.filter((m) => m.event === 'UPDATE')).toEqual([{ event: 'UPDATE', data: 'THERMOCOUPLE' }]);
    expect(otherViewer.messages.filter((m) => m.event === 'UPDATE')).toEqual([]);
  });

  it('gives each measurement type the colour a new marker of it gets', async () => {
    const res = await api.http.get('/api/v1/measurement-types').expect(200);
    const colours = res.body.data.map((t: { color_hex: string }) => t.color_hex);
    expect(new Set(colours).size).toBe(12);
    expect(res.body.data[0]).toMatchObject({ name: 'Tśr i Tmax', color_hex: '#E53935' });
  });

  describe('as an attacker', () => {
    let config: { id: string };
    let researchId: string;
    let viewer: string;
    let code: string;
    let otherViewer: string;

    beforeAll(async () => {
      const r = await createResearch(api, staff);
      researchId = r.id;
      config = (await uploadConfig(api, staff, r.id).expect(200)).body;
      code = (await addClient(api, staff, r.id, 'client@example.com')).id;
      viewer = await viewerToken(api, r.id, code);
      const other = await createResearch(api, staff);
      const otherCode = (await addClient(api, staff, other.id, 'other@example.com')).id;
      otherViewer = await viewerToken(api, other.id, otherCode);
      // The other research's client also holds a config there: it does not open this one.
      await uploadConfig(api, staff, other.id).expect(200);
    });

    afterEach(async () => {
      expect(await fileOf(config.id)).toBe(VALID_CONFIG);
    });

    it('without a token gets 401', async () => {
      expect(
        (
          await api.http
            .put(`/api/v1/research/thermo/${config.id}/config`)
            .attach('config_file', Buffer.from(EDITED), 'x.txt')
        ).status,
      ).toBe(401);
    });

    it("with a client's viewer token of this very research gets 403: clients never write", async () => {
      const res = await save(config.id, EDITED, viewer);
      expect(res.status).toBe(403);
      // Reading it is theirs, writing is not.
      expect((await api.http.get(`/api/v1/research/thermo/${config.id}/coords`).set(auth(viewer))).status).toBe(200);
    });

    it("with another research's viewer token gets 403", async () => {
      expect((await save(config.id, EDITED, otherViewer)).status).toBe(403);
    });

    it('with the access code itself as a bearer token gets 401', async () => {
      expect((await save(config.id, EDITED, code)).status).toBe(401);
      const res = await api.http
        .put(`/api/v1/research/thermo/${config.id}/config?code=${code}`)
        .attach('config_file', Buffer.from(EDITED), 'x.txt');
      expect(res.status).toBe(401);
    });

    it('on a config that does not exist gets 404 and a malformed id 422', async () => {
      const unknown = await save(randomUUID(), EDITED);
      expect(unknown.status).toBe(404);
      expect(unknown.body.detail).toBe('Thermocouple config not found');
      expect((await save('not-a-uuid', EDITED)).status).toBe(422);
      // A research id is not a config id.
      expect((await save(researchId, EDITED)).status).toBe(404);
    });
  });
});
