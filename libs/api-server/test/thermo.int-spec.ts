import sharp from 'sharp';
import { configText, createResearch, SPECIMEN_JPEG, SPECIMEN_PNG, uploadConfig, VALID_CONFIG } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

/** Windows-1250 bytes of a string whose non-ASCII letters are all Polish (the encoder is written out so the test does not trust a library). */
function cp1250(text: string): Buffer {
  const map: Record<string, number> = {
    ś: 0x9c,
    ą: 0xb9,
    ć: 0xe6,
    ł: 0xb3,
    ż: 0xbf,
    ó: 0xf3,
    ę: 0xea,
    ń: 0xf1,
    ź: 0x9f,
    Ś: 0x8c,
    Ł: 0xa3,
  };
  return Buffer.from([...text].map((ch) => (ch.charCodeAt(0) < 128 ? ch.charCodeAt(0) : (map[ch] ?? 0x3f))));
}

describe('thermocouple configs: photo + config file', () => {
  let api: TestApi;
  let user: string;

  beforeAll(async () => {
    api = await startTestApi();
    user = (await signUpUser(api)).token;
  });
  afterAll(() => api?.close());

  const configsOf = async (researchId: string) =>
    (await api.http.get(`/api/v1/research/${researchId}/thermo`).set(auth(user))).body.data;

  it('stores a real PNG with its config and serves the photo, the file and the markers', async () => {
    const r = await createResearch(api, user);
    const res = await uploadConfig(api, user, r.id, SPECIMEN_PNG, VALID_CONFIG, {
      image: 'ściana.png',
      config: 'termopary.txt',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      research_id: r.id,
      image_filename: 'ściana.png',
      config_filename: 'termopary.txt',
      image_width: 640,
      image_height: 480,
    });

    const image = await api.http.get(`/api/v1/research/thermo/${res.body.id}/image`).set(auth(user)).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // Re-encoded on upload (metadata and anything appended dropped): the same picture, pixel for pixel.
    const [served, original] = await Promise.all([
      sharp(image.body as Buffer)
        .raw()
        .toBuffer(),
      sharp(SPECIMEN_PNG).raw().toBuffer(),
    ]);
    expect(Buffer.compare(served, original)).toBe(0);
    const etag = image.headers['etag'];
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(
      (await api.http.get(`/api/v1/research/thermo/${res.body.id}/image`).set(auth(user)).set('If-None-Match', etag))
        .status,
    ).toBe(304);

    const file = await api.http.get(`/api/v1/research/thermo/${res.body.id}/config`).set(auth(user)).buffer(true);
    expect(file.text ?? (file.body as Buffer).toString('utf8')).toBe(VALID_CONFIG);

    const markers = await api.http.get(`/api/v1/research/thermo/${res.body.id}/coords`).set(auth(user));
    expect(
      markers.body.data.map((m: { thermo_id: number; name: string; type_name: string }) => [
        m.thermo_id,
        m.name,
        m.type_name,
      ]),
    ).toEqual([
      [1, 'T1', 'Tśr i Tmax'],
      [2, 'T2', 'Tśr i Tmax'],
      [3, 'T3', 'Tmax ościeżnicy'],
    ]);
    expect(markers.body.data[2]).toMatchObject({
      color_hex: '#1E88E5',
      item_x: 500,
      item_y: 300,
      item_size: 14,
      label_x: 520,
      label_y: 280,
      label_width: 64,
      label_height: 24,
    });
  });

  it('accepts a JPEG and collects the markers of every config of the research', async () => {
    const r = await createResearch(api, user);
    await uploadConfig(api, user, r.id).expect(200);
    const jpeg = await uploadConfig(
      api,
      user,
      r.id,
      SPECIMEN_JPEG,
      configText(['7;T7;T;#43A047;10;10;10;30;10;50;20']),
      { image: 'back.jpg', config: 'back.txt' },
    );
    expect(jpeg.status).toBe(200);
    const img = await api.http.get(`/api/v1/research/thermo/${jpeg.body.id}/image`).set(auth(user));
    expect(img.headers['content-type']).toBe('image/jpeg');
    const all = await api.http.get(`/api/v1/research/${r.id}/thermo/coords`).set(auth(user));
    expect(all.body.data.map((m: { thermo_id: number }) => m.thermo_id)).toEqual([1, 2, 3, 7]);
    expect(await configsOf(r.id)).toHaveLength(2);
  });

  it('reads a Windows-1250 config with Polish type names', async () => {
    const r = await createResearch(api, user);
    const text = configText([
      '1;Łącznik;Tśr i Tmax;#E53935;10;10;10;30;10;50;20',
      '2;Kątownik;T kątowników;#8E24AA;100;10;10;120;10;50;20',
      '3;Ościeżnica;Tmax ościeżnicy;#1E88E5;200;10;10;220;10;50;20',
    ]);
    const res = await uploadConfig(api, user, r.id, SPECIMEN_PNG, cp1250(text), {
      image: 'a.png',
      config: 'cp1250.txt',
    });
    expect(res.status).toBe(200);
    const markers = await api.http.get(`/api/v1/research/thermo/${res.body.id}/coords`).set(auth(user));
    expect(markers.body.data.map((m: { name: string; type_name: string }) => `${m.name}/${m.type_name}`)).toEqual([
      'Łącznik/Tśr i Tmax',
      'Kątownik/T kątowników',
      'Ościeżnica/Tmax ościeżnicy',
    ]);
  });

  it('reports every error of a bad config by line and field, and stores nothing', async () => {
    const r = await createResearch(api, user);
    const bad = configText([
      '# front face',
      '1;T1;Tśr i Tmax;#E53935;100;100;14;120;80;64;24',
      '1;T1b;Tmax;#E53935;100;100;14;120;80;64;24',
      '2;T2;Tmaks;#E5393;100;100;14;120;80;64;24',
      '3;T3;Tmax;#E53935;630;100;14;120;80;64;24',
      '4;T4;Tmax;#E53935;100',
    ]);
    const res = await uploadConfig(api, user, r.id, SPECIMEN_PNG, bad);
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: (string | number)[] }) => d.loc.slice(2).join(':'));
    expect(locs).toEqual(expect.arrayContaining(['4:thermo_id', '5:type_name', '5:color_hex', '6:item_x']));
    expect(locs.some((l: string) => l.startsWith('7'))).toBe(true);
    expect(res.body.detail.every((d: { msg: string }) => /^line \d+/.test(d.msg))).toBe(true);
    expect(await configsOf(r.id)).toEqual([]);
    const markers = await api.dataSource.query(
      'SELECT count(*)::int AS n FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id WHERE c.research_id = $1',
      [r.id],
    );
    expect(markers[0].n).toBe(0);
  });

  it('checks the photo by its bytes, not its name', async () => {
    const r = await createResearch(api, user);
    const fake = await uploadConfig(
      api,
      user,
      r.id,
      Buffer.from('this is just text pretending to be a photo'),
      VALID_CONFIG,
      { image: 'photo.png', config: 'c.txt' },
    );
    expect(fake.status).toBe(422);
    expect(fake.body.detail[0]).toMatchObject({
      loc: ['body', 'image_file'],
      msg: 'image_file is not a PNG or JPEG image',
    });
    const truncated = await uploadConfig(api, user, r.id, SPECIMEN_PNG.subarray(0, 12), VALID_CONFIG);
    expect(truncated.status).toBe(422);
    expect(await configsOf(r.id)).toEqual([]);
  });

  it('answers 413 for an oversized photo and a missing file with 422', async () => {
    const r = await createResearch(api, user);
    const huge = Buffer.concat([SPECIMEN_PNG, Buffer.alloc(16 * 1024 * 1024)]);
    const res = await uploadConfig(api, user, r.id, huge);
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe("A file is larger than 15 MiB (the limit of image_file; config_file's is 512 KiB)");
    const noConfig = await api.http
      .post('/api/v1/research/thermo')
      .set(auth(user))
      .field('research_id', r.id)
      .attach('image_file', SPECIMEN_PNG, 'a.png');
    expect(noConfig.status).toBe(422);
    expect(noConfig.body.detail).toEqual([
      { loc: ['body', 'config_file'], msg: 'config_file is required', type: 'missing' },
    ]);
    expect(await configsOf(r.id)).toEqual([]);
  });

  it('deletes a config with its markers', async () => {
    const r = await createResearch(api, user);
    const c = await uploadConfig(api, user, r.id).expect(200);
    await api.http.delete(`/api/v1/research/thermo/${c.body.id}`).set(auth(user)).expect(200);
    expect((await api.http.get(`/api/v1/research/thermo/${c.body.id}`).set(auth(user))).status).toBe(404);
    const left = await api.dataSource.query('SELECT count(*)::int AS n FROM thermo_marker WHERE config_id = $1', [
      c.body.id,
    ]);
    expect(left[0].n).toBe(0);
  });
});
