import sharp from 'sharp';
import { checkDrawing } from './drawing-check';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

describe('checkDrawing', () => {
  it('takes a PDF by its header and its %%EOF, as it came, whatever the case of its extension', async () => {
    expect(await checkDrawing('Rys. 1.PDF', PDF)).toEqual({ ok: true, mime: 'application/pdf', data: PDF });
    // Some writers leave a few bytes after %%EOF.
    const trailing = Buffer.concat([PDF, Buffer.alloc(300, 0x0a)]);
    expect(await checkDrawing('rys.pdf', trailing)).toMatchObject({ ok: true, mime: 'application/pdf' });
  });

  it('encodes an image again, in its own format', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Artist: 'Jan Kowalski' } } })
      .toBuffer();
    const checked = await checkDrawing('widok.jpeg', jpeg);
    expect(checked).toMatchObject({ ok: true, mime: 'image/jpeg' });
    expect(checked.ok && checked.data.includes('Kowalski')).toBe(false);
  });

  it('names the file in every refusal: another kind, a name and content that disagree, a PDF cut short', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect(await checkDrawing('rys.pdf', png)).toEqual({
      ok: false,
      message: '"rys.pdf" is not a PDF: its content is a PNG image',
    });
    expect(await checkDrawing('rys.jpg', png)).toEqual({
      ok: false,
      message: '"rys.jpg" is not a JPEG image: its content is a PNG image',
    });
    expect(await checkDrawing('rys.pdf', Buffer.from('PK\x03\x04'))).toEqual({
      ok: false,
      message: '"rys.pdf" is not a PDF: its content is none of PDF, PNG or JPEG',
    });
    expect(await checkDrawing('rys.pdf', PDF.subarray(0, 40))).toEqual({
      ok: false,
      message: '"rys.pdf" is not a whole PDF: it has no %%EOF at its end',
    });
    expect(await checkDrawing('rys.dwg', PDF)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^"rys\.dwg" is not a drawing: a PDF/),
    });
    // "%PDF-" alone is no version: not the header of a PDF.
    expect(await checkDrawing('rys.pdf', Buffer.from('%PDF-x\n%%EOF'))).toMatchObject({
      ok: false,
      message: '"rys.pdf" is not a PDF: its content is none of PDF, PNG or JPEG',
    });
  });
});
