import { createHash, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { UnprocessableEntityException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { nextStatementSize, timed } from '@furnace/db';
import { isUniqueViolation, sqlState } from '../core/errors';
import { hashRawData, type RawDataRow } from '../review/raw-data';
import {
  INSERT_READINGS,
  insertRows,
  READINGS_HEADER,
  READINGS_SPAN,
  ROLLUP_RANGE,
  ROLLUP_STEP_S,
} from './archive.queries';
import type { ArchiveRepository, JsonRow } from './archive.repository';
import { configFile, configImage, documentFile, drawingFile } from './archive-writer';
import { ARCHIVE_FORMAT, type Manifest, READINGS_FILE } from './manifest';
import { BadZip, entryBytes, entryStream, type ZipEntry, zipEntries } from './zip-reader';

/** The review's columns of the research: set last, once its record is in (an approved test's record takes no row). */
const APPROVAL = ['approved_revision', 'approved_by', 'approved_at', 'approval_comment'] as const;

/** An archive read and checked against its manifest, its files' bytes at hand. */
export interface CheckedArchive {
  manifest: Manifest;
  json(name: string): JsonRow[];
  bytes(name: string): Buffer;
  readings(): AsyncIterable<string>;
}

const refuse = (detail: string) => new UnprocessableEntityException(detail);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Reads the zip and checks it against its manifest: every file listed is there with its SHA-256, and nothing is there
 * that is not listed. A refusal (422) names every file that does not match.
 */
export async function checkArchive(zip: Buffer): Promise<CheckedArchive> {
  let entries: Map<string, ZipEntry>;
  let manifest: Manifest;
  try {
    entries = zipEntries(zip);
    const entry = entries.get('manifest.json');
    if (!entry) throw refuse('manifest.json is missing: the file is not an archive of a test');
    manifest = JSON.parse(entryBytes(zip, entry).toString('utf8')) as Manifest;
  } catch (error) {
    if (error instanceof BadZip) throw refuse(error.message);
    if (error instanceof SyntaxError) throw refuse('manifest.json is not JSON');
    throw error;
  }
  if (
    manifest.format !== ARCHIVE_FORMAT ||
    !Array.isArray(manifest.files) ||
    typeof manifest.data_sha256 !== 'string'
  ) {
    throw refuse(
      `manifest.json: not an archive this server reads (format ${JSON.stringify(manifest.format)}, expected ${ARCHIVE_FORMAT})`,
    );
  }
  const wrong: string[] = [];
  const listed = new Set(manifest.files.map((f) => f.name));
  for (const name of entries.keys())
    if (name !== 'manifest.json' && !listed.has(name)) wrong.push(`${name} (not in the manifest)`);
  for (const file of manifest.files) {
    const entry = entries.get(file.name);
    if (!entry) {
      wrong.push(`${file.name} (in the manifest, not in the archive)`);
      continue;
    }
    try {
      const actual = file.name === READINGS_FILE ? await streamSha256(zip, entry) : sha256(entryBytes(zip, entry));
      if (actual !== file.sha256) wrong.push(`${file.name} (its SHA-256 is not the manifest's)`);
    } catch {
      wrong.push(`${file.name} (damaged)`);
    }
  }
  if (wrong.length > 0) throw refuse(`the archive does not match its manifest: ${wrong.join(', ')}`);
  if (!entries.has(READINGS_FILE)) throw refuse(`${READINGS_FILE} is missing`);
  return {
    manifest,
    json(name) {
      const entry = entries.get(name);
      if (!entry) throw refuse(`${name} is missing`);
      let value: unknown;
      try {
        value = JSON.parse(entryBytes(zip, entry).toString('utf8'));
      } catch {
        throw refuse(`${name} is not JSON`);
      }
      const rows = Array.isArray(value) ? value : [value];
      if (rows.some((r) => r === null || typeof r !== 'object' || Array.isArray(r)))
        throw refuse(`${name}: not rows of a table`);
      return rows as JsonRow[];
    },
    bytes(name) {
      const entry = entries.get(name);
      if (!entry) throw refuse(`${name} is missing`);
      return entryBytes(zip, entry);
    },
    readings: () => createInterface({ input: entryStream(zip, entries.get(READINGS_FILE)!), crlfDelay: Infinity }),
  };
}

async function streamSha256(zip: Buffer, entry: ZipEntry): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of entryStream(zip, entry)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Test hooks (archive.int-spec.ts): the readings' first batch, a wait after each batch of readings is written, and
 * how often the import tells it is alive (ArchiveRepository.touch; one not touched for STALE_IMPORT_S died).
 */
export const importHooks: {
  firstBatch: number;
  afterBatch?: (researchId: string) => Promise<void>;
  touchMs: number;
} = {
  firstBatch: 100,
  touchMs: 10_000,
};

/** Readings a statement writes, at least and at most (sized to STATEMENT_MS in between: @furnace/db statement-size.ts). */
const MIN_BATCH = 10;
const MAX_BATCH = 2000;
/** Readings a page of the raw data hash's check reads (each its own short transaction). */
const HASH_PAGE = 100;
export const STALE_IMPORT_S = 600;

/**
 * Writes the archive's record as a new test `id` (docs/behaviour.md, "The archive") in short transactions: first the
 * research with its mark as importing (hidden: not listed, not readable, no stream), then the rest of its record, the
 * readings a batch at a time sized to STATEMENT_MS (@furnace/db), then their rollups (in statements sized so too) and the check of the raw data hash (with the
 * hash's own code, a page at a time), and last, in one short transaction, the approval, the audit trail's copy,
 * `finish`'s rows, and the mark's removal: the test appears whole or not at all. Every row's id is new, the rest as
 * it was; archived, by `importer`, now. On a refusal or any failure the caller deletes what was written (`discard`).
 */
export async function restoreArchive(
  archive: CheckedArchive,
  repo: ArchiveRepository,
  id: string,
  importer: string,
  finish: (em: EntityManager) => Promise<void>,
): Promise<void> {
  const research = archive.json('research.json')[0]!;
  const approval = Object.fromEntries(APPROVAL.map((c) => [c, research[c] ?? null]));
  await repo.transaction(async (em) => {
    await insert(em, 'research', [
      {
        ...research,
        ...Object.fromEntries(APPROVAL.map((c) => [c, null])),
        id,
        // Who is responsible is an account of the lab it came from, not of this one.
        responsible_user_id: null,
        archived_at: new Date().toISOString(),
        archived_by: importer,
      },
    ]);
    await em.query('INSERT INTO research_import (research_id, importer) VALUES ($1, $2)', [id, importer]);
  });
  const step = (table: string, rows: () => JsonRow[]) => repo.transaction((em) => insert(em, table, rows()));

  const configs = archive.json('thermo_configs.json');
  const configIds = new Map(configs.map((c) => [String(c.id), randomUUID()]));
  for (const c of configs) {
    const { markers: _markers, ...config } = c;
    await step('thermo_config', () => [
      {
        ...config,
        id: configIds.get(String(c.id)),
        research_id: id,
        image_data: hex(archive.bytes(configImage(c))),
        config_data: hex(archive.bytes(configFile(c))),
      },
    ]);
  }
  await step('thermo_marker', () =>
    configs.flatMap((c) =>
      (c.markers as JsonRow[]).map((m) => ({ ...m, id: randomUUID(), config_id: configIds.get(String(c.id)) })),
    ),
  );
  const owned = (rows: JsonRow[]) => rows.map((r) => ({ ...r, id: randomUUID(), research_id: id }));
  await step('observation', () => owned(archive.json('observations.json')));
  await repo.transaction(async (em) => {
    await insert(em, 'thermo_exclusion', owned(archive.json('exclusions.json')));
    // Their trigger queued a refresh of the category rollups; the import makes them itself, once its readings are in.
    await em.query('DELETE FROM rollup_refresh WHERE research_id = $1', [id]);
  });
  await step('research_url', () => owned(archive.json('stream_links.json')));
  for (const d of archive.json('drawings.json')) {
    await step('research_drawing', () => [
      { ...d, id: randomUUID(), research_id: id, data: hex(archive.bytes(drawingFile(d))) },
    ]);
  }

  const alive = heartbeat(repo, id);
  await insertReadings(archive, repo, id, alive);
  // What the ingest keeps up to date frame by frame, made for the whole test in statements sized as the batches.
  const [span] = (await repo.short((run) => run(READINGS_SPAN, [id]))) as {
    first: number | null;
    last: number | null;
  }[];
  let width = 6 * ROLLUP_STEP_S;
  for (let from = span?.first ?? 0; span?.last != null && from <= span.last;) {
    const to = from + width;
    const took = await timed(() => repo.transaction((em) => em.query(ROLLUP_RANGE, [id, from, to])));
    from = to;
    width = ROLLUP_STEP_S * nextStatementSize(width / ROLLUP_STEP_S, took, 1, 360);
    await alive();
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Told before each page's transaction, not inside it: the touch is another connection's statement.
  const raw = await hashRawData(
    async (sql, params) => {
      await alive();
      return repo.short((run) => run(sql, params) as Promise<RawDataRow[]>);
    },
    id,
    { pageSize: HASH_PAGE },
  );
  if (raw.sha256 !== archive.manifest.data_sha256 || raw.readings !== archive.manifest.readings) {
    throw refuse(
      `${READINGS_FILE}: its ${raw.readings} readings do not reproduce the raw data's SHA-256 of the manifest (${archive.manifest.data_sha256}, ` +
        `${archive.manifest.readings} readings): they hash to ${raw.sha256}`,
    );
  }

  await step('research_revision', () => archive.json('revisions.json').map((r) => ({ ...r, research_id: id })));
  for (const d of archive.json('documents.json')) {
    await step('research_document', () => [
      { ...d, id: randomUUID(), research_id: id, data: hex(archive.bytes(documentFile(d))) },
    ]);
  }
  // The test appears: the trail of the test it was under the new test (the copies keep their times, actors and values;
  // the trail is append-only, so it is written only here), the approval, and the mark gone, in one transaction.
  await repo.transaction(async (em) => {
    await insert(
      em,
      'audit_entry',
      archive.json('audit.json').map(({ id: _id, ...e }) => ({ ...e, research_id: id })),
    );
    await finish(em);
    if (approval.approved_revision !== null) {
      await em.query(`UPDATE research SET ${APPROVAL.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [
        id,
        ...APPROVAL.map((c) => approval[c]),
      ]);
    }
    const unmarked = (await em.query('DELETE FROM research_import WHERE research_id = $1 RETURNING research_id', [
      id,
    ])) as unknown[];
    // Swept as dead meanwhile (not touched for STALE_IMPORT_S): nothing of it is left to show.
    if (unmarked.length === 0) throw new Error(`the import of ${id} was discarded while it ran`);
  });
}

/** A call that touches the import's mark at most every importHooks.touchMs. */
function heartbeat(repo: ArchiveRepository, id: string): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < importHooks.touchMs) return;
    last = Date.now();
    await repo.touch(id);
  };
}

/** The rows of `table`, all at once; every row of one part of an archive has the same columns. */
async function insert(em: EntityManager, table: string, rows: JsonRow[]): Promise<void> {
  if (rows.length === 0) return;
  await em.query(insertRows(table, Object.keys(rows[0]!)), [JSON.stringify(rows)]);
}

/** A bytea's text as PostgreSQL reads it. */
const hex = (data: Buffer) => `\\x${data.toString('hex')}`;

/**
 * The readings file, a batch at a time in a statement of its own (never the whole test in memory): each batch sized
 * so that its statement takes about STATEMENT_MS, the next read only after the event loop has turned.
 */
async function insertReadings(
  archive: CheckedArchive,
  repo: ArchiveRepository,
  researchId: string,
  alive: () => Promise<void>,
): Promise<void> {
  const columns = READINGS_HEADER.split(';');
  let batch: string[][] = columns.map(() => []);
  let size = importHooks.firstBatch;
  let header = true;
  let n = 0;
  const flush = async () => {
    if (batch[0]!.length === 0) return;
    let took: number;
    try {
      // One statement, no transaction around it (its text carries its own time zone): one exchange on the embedded
      // database, which serves the others' between two.
      took = await timed(() => repo.run(INSERT_READINGS, [researchId, ...batch]));
    } catch (error) {
      // A value that is not its column's type (22…), or a time twice.
      if (sqlState(error)?.startsWith('22') || isUniqueViolation(error))
        throw refuse(`${READINGS_FILE}: ${(error as Error).message}`);
      throw error;
    }
    size = nextStatementSize(size, took, MIN_BATCH, MAX_BATCH);
    batch = columns.map(() => []);
    await alive();
    await importHooks.afterBatch?.(researchId);
    await new Promise((resolve) => setImmediate(resolve));
  };
  for await (const line of archive.readings()) {
    n += 1;
    if (header) {
      if (line !== READINGS_HEADER) throw refuse(`${READINGS_FILE}: its header is not ${READINGS_HEADER}`);
      header = false;
      continue;
    }
    if (line === '') continue;
    const fields = line.split(';');
    if (fields.length !== columns.length)
      throw refuse(`${READINGS_FILE}, line ${n}: ${fields.length} fields, not ${columns.length}`);
    fields.forEach((f, i) => batch[i]!.push(f));
    if (batch[0]!.length >= size) await flush();
  }
  await flush();
}
