import { randomUUID } from 'node:crypto';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { login, SUPERUSER } from '@furnace/testing';
import { addClient, createResearch, SPECIMEN_JPEG, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

/*
 * The drawings of a research's specimen (POST/GET/DELETE /research/{id}/drawings): staff attach, list,
 * download and delete them; whatever is not the PDF or image its name says is refused with a 422 naming
 * the file, a file over 20 MiB with a 413, a client or a stranger with 403/401, and nothing is stored.
 */

const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';

/** A real one-page PDF, as a CAD program or a scanner writes one. */
function pdf(text = 'Przekrój A-A'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.text(text);
    doc.end();
  });
}

/** Reads a response body as bytes whatever its type. */
function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('drawings of the specimen', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let viewer: string;
  let otherViewer: string;

  beforeAll(async () => {
    api = await startTestApi();
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (await createResearch(api, staff)).id;
    viewer = await viewerToken(api, researchId, (await addClient(api, staff, researchId, 'client@example.com')).id);
    const other = (await createResearch(api, staff)).id;
    otherViewer = await viewerToken(api, other, (await addClient(api, staff, other, 'other@example.com')).id);
  });
  afterAll(() => api?.close());

  const path = (research = researchId) => `/api/v1/research/${research}/drawings`;
  const upload = (file: Buffer, name: string, token: string | null = staff, research = researchId) => {
    const req = api.http.post(path(research));
    return (token ? req.set(auth(token)) : req).attach('file', file, name);
  };
  const list = async (research = researchId) => {
    const res = await api.http.get(path(research)).set(auth(staff));
    expect(res.status).toBe(200);
    return res.body.data as { id: string; filename: string; mime: string; size: number }[];
  };
  const download = (id: string, token: string | null = staff, research = researchId) => {
    const req = api.http
      .get(`${path(research)}/${id}`)
      .buffer(true)
      .parse(binary as never);
    return token ? req.set(auth(token)) : req;
  };
  /** Refused with one 422 detail naming the file, and nothing stored. */
  async function refused(file: Buffer, name: string, msg: string | RegExp) {
    const before = (await list()).length;
    const res = await upload(file, name);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'file'], msg: expect.any(String), type: 'drawing' }]);
    if (typeof msg === 'string') expect(res.body.detail[0].msg).toBe(msg);
    else expect(res.body.detail[0].msg).toMatch(msg);
    expect(await list()).toHaveLength(before);
  }

  it('lets staff attach a PDF and an image, list them, download each as an attachment and delete it', async () => {
    const drawing = await pdf();
    const res = await upload(drawing, 'Rysunek 1 – przekrój.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      research_id: researchId,
      filename: 'Rysunek 1 – przekrój.pdf',
      mime: 'application/pdf',
      size: drawing.length,
      created_by: SUPERUSER.email,
      created_at: expect.any(String),
    });
    const photo = await upload(SPECIMEN_JPEG, 'widok.JPG');
    expect([photo.status, photo.body.mime]).toEqual([200, 'image/jpeg']);
    expect((await list()).map((d) => d.filename)).toEqual(['Rysunek 1 – przekrój.pdf', 'widok.JPG']);

    const file = await download(res.body.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="Rysunek 1 \? przekrój\.pdf"; filename\*=UTF-8''Rysunek%201%20%E2%80%93%20przekr%C3%B3j\.pdf$/,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect((file.body as Buffer).equals(drawing)).toBe(true);

    // Any member of staff may read and delete it, not only who attached it.
    const colleague = (await signUpUser(api)).token;
    expect((await download(photo.body.id, colleague)).status).toBe(200);
    expect((await api.http.delete(`${path()}/${photo.body.id}`).set(auth(colleague))).status).toBe(200);
    expect((await download(photo.body.id)).status).toBe(404);
    expect((await api.http.delete(`${path()}/${photo.body.id}`).set(auth(staff))).status).toBe(404);
    expect((await list()).map((d) => d.filename)).toEqual(['Rysunek 1 – przekrój.pdf']);
  });

  it('refuses a file that is not what its name says: a page, a script or an image renamed .pdf, a cut PDF, another format', async () => {
    await refused(
      Buffer.from(HTML),
      'faktura.pdf',
      '"faktura.pdf" is not a PDF: its content is none of PDF, PNG or JPEG',
    );
    await refused(
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
      'rysunek.pdf',
      '"rysunek.pdf" is not a PDF: its content is none of PDF, PNG or JPEG',
    );
    await refused(SPECIMEN_JPEG, 'rysunek.pdf', '"rysunek.pdf" is not a PDF: its content is a JPEG image');
    // A PDF header with the rest of the file missing (or a page behind it).
    const whole = await pdf();
    await refused(
      whole.subarray(0, whole.length - 200),
      'ucięty.pdf',
      '"ucięty.pdf" is not a whole PDF: it has no %%EOF at its end',
    );
    await refused(
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(HTML)]),
      'strona.pdf',
      '"strona.pdf" is not a whole PDF: it has no %%EOF at its end',
    );
    await refused(whole, 'rysunek.png', '"rysunek.png" is not a PNG image: its content is a PDF');
    await refused(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'rysunek.svg',
      /^"rysunek\.svg" is not a drawing: a PDF \(\.pdf\) or a PNG or JPEG image/,
    );
    await refused(whole, 'rysunek', /^"rysunek" is not a drawing/);
    await refused(Buffer.alloc(0), 'pusty.pdf', '"pusty.pdf" is empty');
    // The signature and header of a PNG, then HTML instead of its pixels.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    await refused(
      Buffer.concat([png.subarray(0, 33), Buffer.from(HTML)]),
      'widok.png',
      /^"widok\.png" is not a readable PNG image/,
    );
    // The name is shown as typed, never as a path.
    await refused(
      Buffer.from(HTML),
      '../../etc/passwd.pdf',
      '"passwd.pdf" is not a PDF: its content is none of PDF, PNG or JPEG',
    );
  });

  it('stores an image with only its pixels: HTML hidden in it and appended after it is gone', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .png()
      .withMetadata({ exif: { IFD0: { ImageDescription: HTML } } })
      .toBuffer();
    const res = await upload(Buffer.concat([png, Buffer.from(HTML)]), 'widok.png');
    expect([res.status, res.body.mime]).toEqual([200, 'image/png']);
    const file = await download(res.body.id);
    expect(file.headers['content-type']).toBe('image/png');
    const body = file.body as Buffer;
    expect(body.includes('<html')).toBe(false);
    expect(body.includes('script')).toBe(false);
    expect(res.body.size).toBe(body.length);
  });

  it('refuses a file over 20 MiB with 413 and stores nothing; a form without the file with 422', async () => {
    const before = (await list()).length;
    const whole = await pdf();
    // A PDF whose body grows past the limit (a scanned sheet's image data), still a PDF from header to %%EOF.
    const big = Buffer.concat([whole.subarray(0, 9), Buffer.alloc(20 * 1024 * 1024, 0x20), whole.subarray(9)]);
    const res = await upload(big, 'skan A0.pdf');
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('The file is larger than 20 MiB, the limit of a drawing');
    expect(await list()).toHaveLength(before);
    // Only the one file is read: another field, or a file under another name, is refused before it is stored.
    const field = await api.http.post(path()).set(auth(staff)).field('note', 'x');
    expect([field.status, field.body.detail]).toEqual([400, 'Too many fields']);
    const misnamed = await api.http.post(path()).set(auth(staff)).attach('image_file', whole, 'rys.pdf');
    expect([misnamed.status, misnamed.body.detail]).toEqual([400, 'Unexpected file field - image_file']);
    const empty = await api.http.post(path()).set(auth(staff));
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([{ loc: ['body', 'file'], msg: 'file is required', type: 'missing' }]);
  });

  it('is staff only: a client of the research, a client of another one and anyone without a token are refused every route', async () => {
    const drawing = (await upload(await pdf(), 'rys.pdf')).body.id as string;
    for (const [token, status] of [
      [viewer, 403],
      [otherViewer, 403],
      [null, 401],
    ] as const) {
      expect((await upload(await pdf(), 'rys.pdf', token)).status).toBe(status);
      const get = api.http.get(path());
      expect((await (token ? get.set(auth(token)) : get)).status).toBe(status);
      expect((await download(drawing, token)).status).toBe(status);
      const del = api.http.delete(`${path()}/${drawing}`);
      expect((await (token ? del.set(auth(token)) : del)).status).toBe(status);
    }
    expect((await download(drawing)).status).toBe(200);
  });

  it('answers 404 for an unknown research or a drawing of another research, 422 for an id that is not one', async () => {
    const drawing = (await upload(await pdf(), 'rys.pdf')).body.id as string;
    const other = (await createResearch(api, staff)).id;
    expect((await download(drawing, staff, other)).status).toBe(404);
    expect((await api.http.delete(`${path(other)}/${drawing}`).set(auth(staff))).status).toBe(404);
    expect((await upload(await pdf(), 'rys.pdf', staff, randomUUID())).status).toBe(404);
    expect((await api.http.get(path(randomUUID())).set(auth(staff))).status).toBe(404);
    expect((await api.http.get(`${path()}/not-an-id`).set(auth(staff))).status).toBe(422);
    expect((await download(drawing)).status).toBe(200);
  });

  it('goes with its research when a superuser deletes it', async () => {
    const r = (await createResearch(api, staff)).id;
    expect((await upload(await pdf(), 'rys.pdf', staff, r)).status).toBe(200);
    expect((await api.http.delete(`/api/v1/research/${r}`).set(auth(staff))).status).toBe(200);
    const [{ count }] = (await api.dataSource.query(
      'SELECT count(*)::int AS count FROM research_drawing WHERE research_id = $1',
      [r],
    )) as { count: number }[];
    expect(count).toBe(0);
  });
});
