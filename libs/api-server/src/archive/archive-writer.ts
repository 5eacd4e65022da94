import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ZipStream from 'zip-stream';
import { hashRawData } from '../review/raw-data';
import { READINGS_HEADER, READINGS_PAGE } from './archive.queries';
import type { JsonRow, RecordSnapshot } from './archive.repository';
import { ARCHIVE_FORMAT, type Manifest, type ManifestFile, READINGS_FILE } from './manifest';

/** Bytes of the readings' text the compressor queues before the next page is read. */
const CHUNK = 256 * 1024;

/**
 * Readings read, hashed and handed to the compressor at a time: a page is one turn of the event loop that also sends
 * the live frames, and lives in the heap until the next one is read (docs/architecture.md, "Inside the api"); 500 of
 * 300 thermocouples are about 1 MB of text. The first page is the smallest; each next one is sized to how long the
 * last one's statement took (STATEMENT_MS, @furnace/db statement-size.ts: on the embedded database a page's
 * statement holds the ingest's writes while it runs), up to the largest.
 */
const READINGS_PAGE_SIZE = { min: 50, max: 500 };

/**
 * Writes the whole record of a test as one zip (docs/behaviour.md, "The archive"), as it is read: the JSON of each
 * part, each file of the record under its own name, the readings page by page (never the whole test in memory,
 * hashed for the raw data's SHA-256 as they are written), and last `manifest.json` with every file's SHA-256.
 * A client that has gone (`signal`) stops it at the next page.
 */
export async function writeArchive(
  out: Writable,
  researchId: string,
  snapshot: RecordSnapshot,
  signal: AbortSignal,
): Promise<void> {
  const broken = new AbortController();
  const stop = AbortSignal.any([signal, broken.signal]);
  // Level 1: the readings' text deflates nearly as well as at 6, several times faster (as the workbook's).
  const zip = new ZipStream({ zlib: { level: 1, chunkSize: 64 * 1024 } });
  const sent = pipeline(zip, out, { signal: stop });
  sent.catch((error: unknown) => broken.abort(error));
  const files: ManifestFile[] = [];
  const add = (source: Buffer | Readable, name: string) =>
    unless(
      new Promise<void>((resolve, reject) =>
        zip.entry(source, { name }, (error) => (error ? reject(error) : resolve())),
      ),
      stop,
    );
  const addBytes = (data: Buffer, name: string) => {
    files.push({ name, size: data.length, sha256: sha256(data) });
    return add(data, name);
  };
  const addJson = (value: unknown, name: string) => addBytes(Buffer.from(`${JSON.stringify(value, null, 1)}\n`), name);
  const readings = new PassThrough({ highWaterMark: CHUNK });
  try {
    const research = (await snapshot.rows('research'))[0]!;
    await addJson(research, 'research.json');

    const configs = await snapshot.rows('thermo_configs');
    const markers = await snapshot.rows('markers');
    await addJson(
      configs.map((c) => ({ ...c, markers: markers.filter((m) => m.config_id === c.id) })),
      'thermo_configs.json',
    );
    for (const c of configs) {
      await addBytes(await snapshot.bytes('image', String(c.id)), configImage(c));
      await addBytes(await snapshot.bytes('config', String(c.id)), configFile(c));
    }
    await addJson(await snapshot.rows('observations'), 'observations.json');
    await addJson(await snapshot.rows('exclusions'), 'exclusions.json');
    await addJson(await snapshot.rows('urls'), 'stream_links.json');
    const drawings = await snapshot.rows('drawings');
    await addJson(drawings, 'drawings.json');
    for (const d of drawings) await addBytes(await snapshot.bytes('drawing', String(d.id)), drawingFile(d));
    await addJson(await snapshot.rows('revisions'), 'revisions.json');
    const documents = await snapshot.rows('documents');
    await addJson(documents, 'documents.json');
    for (const d of documents) await addBytes(await snapshot.bytes('document', String(d.id)), documentFile(d));
    await addJson(await snapshot.rows('audit'), 'audit.json');

    const readingsHash = createHash('sha256');
    let readingsSize = 0;
    const write = async (text: string) => {
      const chunk = Buffer.from(text);
      readingsHash.update(chunk);
      readingsSize += chunk.length;
      if (!readings.write(chunk)) await once(readings, 'drain', { signal: stop });
    };
    const added = add(readings, READINGS_FILE);
    added.catch(() => undefined); // awaited below; a failure meanwhile ends the waits through `stop`
    await write(`${READINGS_HEADER}\n`);
    const raw = await hashRawData(snapshot.query, researchId, {
      pageQuery: READINGS_PAGE,
      sized: READINGS_PAGE_SIZE,
      until: snapshot.until,
      signal: stop,
      page: (rows) => write(rows.map((r) => `${r.line};${r.rest}\n`).join('')),
    });
    readings.end();
    await added;
    files.push({ name: READINGS_FILE, size: readingsSize, sha256: readingsHash.digest('hex') });
    // Read in short statements, not one snapshot: a record that changed meanwhile (a reopen) gets no manifest.
    await snapshot.unchanged(raw.readings);

    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      research_id: researchId,
      name: String(research.name),
      exported_at: new Date().toISOString(),
      data_sha256: raw.sha256,
      readings: raw.readings,
      files,
    };
    await add(Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`), 'manifest.json');
    zip.finalize();
    await sent;
  } catch (error) {
    readings.destroy();
    zip.destroy();
    throw stop.aborted ? stop.reason : error;
  }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Where each file of the record is in the archive, by its row: the import finds it there again. */
export const configImage = (c: JsonRow) => `thermo_configs/${String(c.id)}/image`;
export const configFile = (c: JsonRow) => `thermo_configs/${String(c.id)}/config`;
export const drawingFile = (d: JsonRow) => `drawings/${String(d.id)}`;
export const documentFile = (d: JsonRow) => `documents/${String(d.revision)}/${String(d.kind)}-${String(d.lang)}.pdf`;

/** `promise`, or the reason of `signal` as soon as it fires (a zip entry whose stream has failed never calls back). */
function unless<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
