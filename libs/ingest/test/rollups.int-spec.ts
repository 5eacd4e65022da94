import type { DaqPayload } from '@furnace/contracts';
import { REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { mulberry32 } from '@furnace/simulator';
import { insertResearch, withPg } from '@furnace/testing';
import { type FrameRow, ReadingsRepository } from '../src/readings.repository';

/*
 * The rollups the ingest folds (libs/ingest/src/rollup-fold.ts) are those the database computes from the
 * stored frames (REBUILD_ROLLUPS_SQL): every row of both tables at every width, counts, first and last
 * times, minima and maxima equal, sums equal but for the order they were added in. The frames are messy:
 * missing channels and frames without thermocouples, arrays of different lengths, faults, values with
 * more digits than a real keeps, frames on and around bucket boundaries and before ignition, batches
 * mixing two researches (and an approved one, whose frames are not stored), a frame twice in one batch,
 * and batches delivered again with new frames among the old.
 */

const CHANNELS = 12;

/** Deterministic pseudo-random numbers, so that a failure replays. */
const random = mulberry32(20261126);

/**
 * A value as a DAQ might send it: one decimal (a real keeps it as it is), or, unless `plain`, now and then
 * with all a double's digits (more than a real keeps); a few spikes.
 */
function value(level: number, plain = false): number | null {
  const r = random();
  if (r < 0.08) return null;
  if (r < 0.3 && !plain) return level + random() / 3;
  if (r < 0.302) return plain ? Math.round(level * 400) / 10 : level * 40 + 0.123456789;
  return Math.round(level * 10) / 10;
}

function makeFrames(from: number, to: number, plainOnly = false): DaqPayload[] {
  const frames: DaqPayload[] = [];
  const level = Array.from({ length: CHANNELS + 2 }, () => 20 + random() * 10);
  for (let t = from; t <= to; t++) {
    if (random() < 0.05) continue;
    // On and just around the bucket boundaries, and between seconds.
    const time = t % 10 === 0 && random() < 0.5 ? t - 0.001 : random() < 0.1 ? t + 0.5 : t;
    for (let c = 0; c < level.length; c++) level[c] = Math.max(0, level[c]! + (random() - 0.45) * 3);
    const shape = random();
    const length = shape < 0.03 ? 0 : shape < 0.06 ? CHANNELS - 4 : shape < 0.08 ? CHANNELS + 2 : CHANNELS;
    // Half the frames only with values a real keeps as they are: the ingest folds their own numbers; the others, PostgreSQL's text.
    const plain = plainOnly || random() < 0.5;
    const thermocouples = shape < 0.1 && shape >= 0.08 ? undefined : level.slice(0, length).map((v) => value(v, plain));
    frames.push({
      time,
      pk: random() < 0.1 ? null : value(20 + Math.max(0, t) / 10, plainOnly),
      radiance: random() < 0.5 ? null : value(random() * 50, plainOnly),
      pressure: random() < 0.2 ? undefined : value(10 + random() * 10, plainOnly),
      ...(thermocouples ? { thermocouples_out: thermocouples } : {}),
      ...(random() < 0.05 ? { faults: [1 + Math.floor(random() * CHANNELS)] } : {}),
    });
  }
  return frames;
}

/** A thermocouple config with markers (thermo_id → type) and exclusions of `researchId`. */
async function insertMarkers(
  url: string,
  researchId: string,
  markers: [number, string][],
  exclusions: [number, number][],
): Promise<void> {
  await withPg(url, async (c) => {
    const { rows } = await c.query<{ id: string }>(
      `INSERT INTO thermo_config (research_id, image_filename, image_mime, image_width, image_height, image_sha256, image_data, config_filename, config_data)
       VALUES ($1, 'specimen.png', 'image/png', 800, 500, $2, ''::bytea, 'config.txt', ''::bytea) RETURNING id`,
      [researchId, '0'.repeat(64)],
    );
    for (const [thermoId, type] of markers) {
      await c.query(
        `INSERT INTO thermo_marker (config_id, thermo_id, name, type_name, color_hex, item_x, item_y, item_size, label_x, label_y, label_width, label_height)
         VALUES ($1, $2, $3, $4, '#E53935', 10, 10, 12, 24, 0, 58, 22)`,
        [rows[0]!.id, thermoId, `T${thermoId}`, type],
      );
    }
    for (const [thermoId, from] of exclusions) {
      await c.query(
        `INSERT INTO thermo_exclusion (research_id, thermo_id, from_time, reason) VALUES ($1, $2, $3, 'test')`,
        [researchId, thermoId, from],
      );
    }
  });
}

type Row = Record<string, unknown>;

async function rollups(url: string, ids: string[]): Promise<{ channel: Row[]; category: Row[] }> {
  return withPg(url, async (c) => ({
    channel: (
      await c.query('SELECT * FROM reading_rollup WHERE research_id = ANY($1) ORDER BY research_id, width, bucket', [
        ids,
      ])
    ).rows,
    category: (
      await c.query(
        'SELECT * FROM reading_rollup_category WHERE research_id = ANY($1) ORDER BY research_id, width, bucket, type_name',
        [ids],
      )
    ).rows,
  }));
}

/** Sums (and a type's per-frame means) may differ by the order they were added in: relatively, by rounding only. */
const close = (a: unknown, b: unknown) =>
  a === b ||
  (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b)));

/** What differs between two snapshots of the rollups, one line each (empty: the same). */
function differences(
  actual: { channel: Row[]; category: Row[] },
  expected: { channel: Row[]; category: Row[] },
): string[] {
  const out: string[] = [];
  const compare = (table: string, a: Row[], e: Row[], key: string[], approx: (column: string) => boolean) => {
    const id = (r: Row) => key.map((k) => String(r[k])).join('|');
    const byKey = new Map(a.map((r) => [id(r), r]));
    if (a.length !== e.length) out.push(`${table}: ${a.length} rows, expected ${e.length}`);
    for (const row of e) {
      const got = byKey.get(id(row));
      if (!got) {
        out.push(`${table} ${id(row)}: missing`);
        continue;
      }
      for (const [column, want] of Object.entries(row)) {
        const have = got[column];
        const same = Array.isArray(want)
          ? Array.isArray(have) &&
            have.length === want.length &&
            want.every((w, i) => (approx(column) ? close(have[i], w) : have[i] === w))
          : approx(column)
            ? close(have, want)
            : have === want;
        if (!same) out.push(`${table} ${id(row)} ${column}: ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`);
      }
    }
  };
  compare('reading_rollup', actual.channel, expected.channel, ['research_id', 'width', 'bucket'], (c) =>
    c.endsWith('_sum'),
  );
  compare(
    'reading_rollup_category',
    actual.category,
    expected.category,
    ['research_id', 'width', 'bucket', 'type_name'],
    (c) => c.endsWith('_sum') || c.startsWith('cmean'),
  );
  return out;
}

describe('ingest: the rollups it folds are those rebuilt from the stored frames', () => {
  let db: TestDatabase;
  let repository: ReadingsRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    repository = new ReadingsRepository(db.url, { query_timeout: 60_000 });
  });
  afterAll(async () => {
    await repository?.close();
    await db?.drop();
  });

  it('for messy frames of two researches in mixed batches, redelivered and duplicated, at every width', async () => {
    const a = await insertResearch(db.url);
    const b = await insertResearch(db.url);
    const approved = await insertResearch(db.url);
    await insertMarkers(
      db.url,
      a,
      [
        [1, 'Tśr i Tmax'],
        [2, 'Tśr i Tmax'],
        [3, 'Tśr i Tmax'],
        [4, 'Tśr i Tmax'],
        [5, 'Tmax'],
        [6, 'Tmax'],
        [7, 'Tmax'],
        [11, 'Tmax ościeżnicy'],
        [13, 'Tmax ościeżnicy'],
        [40, 'Tmax ościeżnicy'],
      ],
      // Thermocouple 3 excluded from 300 s (the earlier of its two exclusions counts), 6 from 1 000 s.
      [
        [3, 450],
        [3, 300],
        [6, 1_000],
      ],
    );
    await insertMarkers(
      db.url,
      b,
      [
        [1, 'A'],
        [2, 'A'],
        [12, 'B'],
      ],
      [],
    );
    await insertMarkers(db.url, approved, [[1, 'A']], []);
    await withPg(db.url, (c) => c.query('UPDATE research SET approved_revision = 1 WHERE id = $1', [approved]));

    const streams: [string, DaqPayload[]][] = [
      [a, makeFrames(-35, 1_300)],
      [b, makeFrames(-5, 700)],
      [approved, makeFrames(0, 40)],
    ];
    const stored = new Map<string, number>([
      [a, 0],
      [b, 0],
      [approved, 0],
    ]);
    const sent: FrameRow[] = [];
    const cursors = streams.map(() => 0);
    let redeliveries = 0;
    while (streams.some(([, frames], i) => cursors[i]! < frames.length)) {
      const batch: FrameRow[] = [];
      for (let n = 1 + Math.floor(random() * 70); n > 0; n--) {
        const s = Math.floor(random() * streams.length);
        const [researchId, frames] = streams[s]!;
        if (cursors[s]! >= frames.length) continue;
        batch.push({ researchId, payload: frames[cursors[s]!++]! });
      }
      if (batch.length === 0) continue;
      // A frame twice in one batch; and now and then frames already stored among the new (a redelivery).
      if (random() < 0.2) batch.push({ ...batch[0]! });
      if (sent.length > 0 && random() < 0.25) {
        redeliveries++;
        for (let k = 0; k < 5; k++)
          batch.splice(Math.floor(random() * batch.length), 0, sent[Math.floor(random() * sent.length)]!);
      }
      const result = await repository.insertFrames(batch);
      for (const key of result.inserted) {
        const researchId = key.split('|')[0]!;
        stored.set(researchId, stored.get(researchId)! + 1);
      }
      sent.push(...batch);
      if (batch.some((f) => f.researchId === approved)) expect(result.approved.get(approved)).toBe(1);
    }
    expect(redeliveries).toBeGreaterThan(5);
    // Every frame stored once, none of the approved research's.
    expect([stored.get(a), stored.get(b), stored.get(approved)]).toEqual([
      streams[0]![1].length,
      streams[1]![1].length,
      0,
    ]);

    const ingested = await rollups(db.url, [a, b, approved]);
    expect(ingested.channel.filter((r) => r.research_id === approved)).toEqual([]);
    expect(ingested.channel.filter((r) => r.width === 600).reduce((n, r) => n + (r.frames as number), 0)).toBe(
      stored.get(a)! + stored.get(b)!,
    );
    expect(new Set(ingested.category.map((r) => `${r.research_id === a ? 'a' : 'b'} ${r.type_name}`))).toEqual(
      new Set(['a Tśr i Tmax', 'a Tmax', 'a Tmax ościeżnicy', 'b A', 'b B']),
    );

    await withPg(db.url, async (c) => {
      for (const id of [a, b]) for (const sql of REBUILD_ROLLUPS_SQL) await c.query(sql, [id]);
    });
    const rebuilt = await rollups(db.url, [a, b, approved]);
    expect(differences(ingested, rebuilt)).toEqual([]);
  }, 120_000);

  it('for writes at the same time (as of two ingest instances): the rollups as if written one after another', async () => {
    const d = await insertResearch(db.url);
    await insertMarkers(
      db.url,
      d,
      [
        [1, 'A'],
        [2, 'A'],
        [5, 'B'],
      ],
      [[1, 300]],
    );
    const frames = makeFrames(0, 1_200);
    const batches: FrameRow[][] = [];
    for (let i = 0; i < frames.length; i += 150)
      batches.push(frames.slice(i, i + 150).map((payload) => ({ researchId: d, payload })));
    // A redelivered frame of the batch before, and a big batch before small ones.
    batches[3]!.push(batches[2]![5]!);
    batches[5] = [...batches[5]!, ...batches[6]!, ...batches[7]!];
    batches.splice(6, 2);
    const other = new ReadingsRepository(db.url, { query_timeout: 60_000 });
    const results = await Promise.all(
      batches.map((batch, i) => (i % 2 === 0 ? repository : other).insertFrames(batch)),
    ).finally(() => other.close());
    expect(results.reduce((n, r) => n + r.inserted.size, 0)).toBe(frames.length);
    const ingested = await rollups(db.url, [d]);
    await withPg(db.url, async (c) => {
      for (const sql of REBUILD_ROLLUPS_SQL) await c.query(sql, [d]);
    });
    expect(differences(ingested, await rollups(db.url, [d]))).toEqual([]);
  }, 120_000);

  it('stores a batch and its rollups together or not at all', async () => {
    const doomed = await insertResearch(db.url);
    await withPg(db.url, async (c) => {
      await c.query(`CREATE FUNCTION test_refuse_rollup() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN IF NEW.research_id = '${doomed}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $fn$`);
      await c.query(
        'CREATE TRIGGER test_refuse_rollup BEFORE INSERT ON reading_rollup FOR EACH ROW EXECUTE FUNCTION test_refuse_rollup()',
      );
    });
    try {
      const frames = makeFrames(0, 30).map((payload) => ({ researchId: doomed, payload }));
      await expect(repository.insertFrames(frames)).rejects.toThrow('refused by the test');
      expect(
        await withPg(
          db.url,
          async (c) =>
            (await c.query('SELECT count(*)::int AS n FROM reading WHERE research_id = $1', [doomed])).rows[0].n,
        ),
      ).toBe(0);
    } finally {
      await withPg(db.url, (c) =>
        c.query('DROP TRIGGER test_refuse_rollup ON reading_rollup; DROP FUNCTION test_refuse_rollup()'),
      );
    }
    // The connection went back to the pool usable: the same frames are stored now, with their rollups.
    const frames = makeFrames(0, 30).map((payload) => ({ researchId: doomed, payload }));
    expect((await repository.insertFrames(frames)).inserted.size).toBe(frames.length);
    expect(
      (await rollups(db.url, [doomed])).channel
        .filter((r) => r.width === 600)
        .reduce((n, r) => n + (r.frames as number), 0),
    ).toBe(frames.length);
  });

  it('for whole batches of new frames with values a real keeps as sent (folded while they are inserted)', async () => {
    const c = await insertResearch(db.url);
    await insertMarkers(
      db.url,
      c,
      [
        [1, 'A'],
        [2, 'A'],
        [3, 'B'],
        [12, 'B'],
      ],
      [[2, 200]],
    );
    const frames = makeFrames(-20, 1_500, true);
    for (let i = 0; i < frames.length;) {
      const batch = frames.slice(i, i + 1 + Math.floor(random() * 120)).map((payload) => ({ researchId: c, payload }));
      expect((await repository.insertFrames(batch)).inserted.size).toBe(batch.length);
      i += batch.length;
    }
    const ingested = await rollups(db.url, [c]);
    expect(ingested.channel.filter((r) => r.width === 600).reduce((n, r) => n + (r.frames as number), 0)).toBe(
      frames.length,
    );
    await withPg(db.url, async (client) => {
      for (const sql of REBUILD_ROLLUPS_SQL) await client.query(sql, [c]);
    });
    expect(differences(ingested, await rollups(db.url, [c]))).toEqual([]);
  }, 120_000);
});
