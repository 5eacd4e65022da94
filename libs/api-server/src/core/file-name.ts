import contentDisposition from 'content-disposition';

/**
 * Characters a file name shows nothing of but which change how it reads: controls (C0, DEL, C1), format
 * characters — the bidirectional controls U+202A–U+202E, U+2066–U+2069, U+200E/U+200F and U+061C among them
 * (U+202E shows "report\u202Efdp.exe" as "reportexe.pdf") — line and paragraph separators, and lone surrogates.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `text` without the characters above. */
export const visibleText = (text: string): string => text.replace(INVISIBLE, '');

/**
 * An uploaded file's name made printable and short: multer hands it over as latin1 bytes of the UTF-8
 * the browser sent; control characters and path separators become "_", format characters (bidi controls)
 * go. It is only ever shown (and offered as a download's name), never used as a path. `fallback` when
 * nothing printable is left.
 */
export const safeFileName = (name: string, fallback: string): string =>
  (
    visibleText(
      [...Buffer.from(name, 'latin1').toString('utf8')]
        .map((c) => (c < ' ' || c === '/' || c === '\\' ? '_' : c))
        .join(''),
    ).trim() || fallback
  ).slice(0, 255);

/**
 * The Content-Disposition of every download: `attachment` with the file's name as shown to the user,
 * without the characters above (a name stored before they were refused included), in UTF-8 (RFC 6266)
 * with `ascii` as the name for clients that read only that (else content-disposition's own ISO-8859-1 form).
 */
export function attachment(name: string, ascii?: string): string {
  const shown = visibleText(name).trim() || (ascii && visibleText(ascii).trim()) || 'download';
  return ascii === undefined ? contentDisposition(shown) : contentDisposition(shown, { fallback: visibleText(ascii) });
}
