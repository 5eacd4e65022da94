import sharp from 'sharp';
import { configText, createResearch } from '../factories';
import { login, SUPERUSER } from '@furnace/testing';
import { auth, startTestApi, type TestApi } from '../harness';

/*
 * Attacks through the photo upload (POST /research/thermo): each is refused or defused, and nothing
 * of the attack is stored or served back.
 */

const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';
const CONFIG = configText(['1;T1;Tśr i Tmax;#E53935;10;10;8;20;10;40;16']);

/** A PNG with an HTML payload both in a text chunk and appended after IEND: a browser sniffing it finds HTML. */
async function polyglotPng(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .withMetadata({ exif: { IFD0: { ImageDescription: HTML } } })
    .toBuffer();
  return Buffer.concat([png, Buffer.from(HTML)]);
}

describe('security: uploads', () => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi();
    token = await login(api, SUPERUSER.email, SUPERUSER.password);
  });
  afterAll(() => api?.close());

  const upload = (researchId: string, image: Buffer, name: string) =>
    api.http
      .post('/api/v1/research/thermo')
      .set(auth(token))
      .field('research_id', researchId)
      .attach('image_file', image, name)
      .attach('config_file', Buffer.from(CONFIG), 'config.txt');
  const configsOf = async (researchId: string) =>
    (await api.http.get(`/api/v1/research/${researchId}/thermo`).set(auth(token))).body.data as unknown[];

  it('a PNG+HTML polyglot comes back as a clean PNG, with nosniff', async () => {
    const r = await createResearch(api, token);
    const polyglot = await polyglotPng();
    expect(polyglot.includes(HTML)).toBe(true);
    const res = await upload(r.id, polyglot, 'photo.png');
    expect([res.status, res.body.detail]).toEqual([200, undefined]);

    const image = await api.http.get(`/api/v1/research/thermo/${res.body.id}/image`).set(auth(token)).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    const body = image.body as Buffer;
    expect(body.includes('<html')).toBe(false);
    expect(body.includes('script')).toBe(false);
    // Nothing after the PNG's last chunk (IEND and its CRC end the file).
    expect(body.subarray(body.length - 8, body.length - 4).toString('latin1')).toBe('IEND');
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['png', 64, 48, undefined]);
  });

  it('a JPEG loses its EXIF (GPS position, camera) on upload', async () => {
    const r = await createResearch(api, token);
    const jpeg = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({
        exif: {
          IFD0: { Make: 'SecretCam', Artist: 'Jan Kowalski' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 13/1 0/1' },
        },
      })
      .toBuffer();
    expect(jpeg.includes('SecretCam')).toBe(true);
    const res = await upload(r.id, jpeg, 'photo.jpg');
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    const image = await api.http.get(`/api/v1/research/thermo/${res.body.id}/image`).set(auth(token)).buffer(true);
    const body = image.body as Buffer;
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(body.includes('SecretCam') || body.includes('Kowalski') || body.includes('Exif')).toBe(false);
    expect((await sharp(body).metadata()).exif).toBeUndefined();
  });

  it('a 50-megapixel image is refused and nothing is stored', async () => {
    const r = await createResearch(api, token);
    // 10 000 × 5 000 of one colour: a few kB on the wire, 200 MB once decoded.
    const bomb = await sharp({
      create: { width: 10_000, height: 5_000, channels: 3, background: '#ffffff' },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await upload(r.id, bomb, 'bomb.png');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        loc: ['body', 'image_file'],
        msg: 'image_file is 10000×5000 px (50 megapixels); at most 40 megapixels',
        type: 'image',
      },
    ]);
    expect(await configsOf(r.id)).toEqual([]);
  });

  it('a file that only starts like a PNG is refused and nothing is stored', async () => {
    const r = await createResearch(api, token);
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    // The signature and header of a PNG, then HTML instead of its image data.
    const fake = Buffer.concat([png.subarray(0, 33), Buffer.from(HTML)]);
    const res = await upload(r.id, fake, 'fake.png');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'image_file'], type: 'image' });
    expect(res.body.detail[0].msg).toMatch(/^image_file is not a readable PNG image/);
    expect(await configsOf(r.id)).toEqual([]);
  });
});
