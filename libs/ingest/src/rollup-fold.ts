import { ROLLUP_WIDTHS } from '@furnace/db';

/*
 * The ingest's half of the rollups (libs/db/src/rollups.ts; docs/architecture.md, "A reading's way from
 * the furnace to a viewer's chart"): the rows a batch's INSERT returned are folded here into one partial
 * row per research, width and bucket (and measurement type), the same min, max, sum and count the rollup
 * statements compute in SQL, so that PostgreSQL is left with the upsert of a few dozen rows instead of
 * unnesting and grouping 150 000 values a batch (docs/performance.md, "Ingest").
 *
 * The values are the stored reals as the SQL sums them, `v::text::float8`: PostgreSQL's text of each,
 * read as a double. The INSERT returns that text; where it is the very literal the ingest sent (values
 * a real keeps as they are, as DAQs send them), the payload's numbers are those doubles already, else
 * the text is parsed (`realArrayParser`). Min and max are of the same values, so they print back to the
 * reals they came from. Sums may differ from the SQL's in the last bits only, by the order they are
 * added in (as the SQL's own do between a rebuild and the ingest).
 */

/** A frame as the INSERT … RETURNING gave it back. */
export interface InsertedFrame {
  research_id: string;
  time: number;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples: readonly (number | null)[] | null;
}

/** A thermocouple of a measurement type (rollupMembersSql's rows). */
export interface RollupMember {
  research_id: string;
  thermo_id: number;
  type_name: string;
  /** From this time on the thermocouple does not count in its type (null: never excluded). */
  excluded_from: number | null;
}

/** min, max, sum and count of the values present; min and max are null while n is 0. */
interface Stats {
  min: number | null;
  max: number | null;
  sum: number;
  n: number;
}

const SCALARS = ['radiance', 'pressure', 'pk'] as const;
type Scalar = (typeof SCALARS)[number];

/** One (research, width, bucket) of reading_rollup. */
export interface ChannelRollup {
  researchId: string;
  width: number;
  bucket: number;
  frames: number;
  firstTime: number;
  lastTime: number;
  scalars: Record<Scalar, Stats>;
  /** Channels (the longest array of the bucket's frames); 0: no frame had thermocouples (the arrays are null). */
  channels: number;
  /** Per channel (index 0 = thermo_id 1), the first `channels`; a min of +Infinity and a max of -Infinity where tN is 0 (null). */
  tMin: Float64Array;
  tMax: Float64Array;
  tSum: Float64Array;
  tN: Int32Array;
}

/** One (research, width, bucket, type) of reading_rollup_category. */
export interface CategoryRollup {
  researchId: string;
  width: number;
  bucket: number;
  typeName: string;
  cmax: Stats;
  cmean: Stats;
}

const FINEST = ROLLUP_WIDTHS[0];

const emptyStats = (): Stats => ({ min: null, max: null, sum: 0, n: 0 });

function addValue(s: Stats, v: number | null | undefined): void {
  if (v === null || v === undefined) return;
  if (s.n === 0) {
    s.min = v;
    s.max = v;
  } else {
    if (v < s.min!) s.min = v;
    if (v > s.max!) s.max = v;
  }
  s.sum += v;
  s.n++;
}

function addStats(s: Stats, o: Stats): void {
  if (o.n > 0 && o.min !== null && o.max !== null) {
    if (s.min === null || o.min < s.min) s.min = o.min;
    if (s.max === null || o.max > s.max) s.max = o.max;
  }
  s.sum += o.sum;
  s.n += o.n;
}

/** `(a, b)` in the order of research id, then bucket (the order rows are upserted in: concurrent writers lock them alike). */
const byKey = (
  a: { researchId: string; width: number; bucket: number },
  b: { researchId: string; width: number; bucket: number },
) => (a.researchId < b.researchId ? -1 : a.researchId > b.researchId ? 1 : a.width - b.width || a.bucket - b.bucket);

const NO_CHANNELS = {
  tMin: new Float64Array(0),
  tMax: new Float64Array(0),
  tSum: new Float64Array(0),
  tN: new Int32Array(0),
};

function channelRollup(
  researchId: string,
  width: number,
  bucket: number,
  firstTime: number,
  lastTime: number,
): ChannelRollup {
  return {
    researchId,
    width,
    bucket,
    frames: 0,
    firstTime,
    lastTime,
    scalars: { radiance: emptyStats(), pressure: emptyStats(), pk: emptyStats() },
    channels: 0,
    ...NO_CHANNELS,
  };
}

/** Makes room for `channels` channels in `r` (new ones without values). */
function widen(r: ChannelRollup, channels: number): void {
  if (channels <= r.channels) return;
  if (channels > r.tN.length) {
    const grow = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T, fill: number) => {
      const next = make(Math.max(channels, 2 * old.length));
      next.fill(fill);
      next.set(old.subarray(0, r.channels));
      return next;
    };
    r.tMin = grow(r.tMin, (n) => new Float64Array(n), Infinity);
    r.tMax = grow(r.tMax, (n) => new Float64Array(n), -Infinity);
    r.tSum = grow(r.tSum, (n) => new Float64Array(n), 0);
    r.tN = grow(r.tN, (n) => new Int32Array(n), 0);
  }
  r.channels = channels;
}

/** Frames into reading_rollup's rows: folded at the finest width, the coarser levels from those partial buckets (as the SQL does). */
export function foldChannelRollups(frames: readonly InsertedFrame[]): ChannelRollup[] {
  const fine = new Map<string, ChannelRollup>();
  for (const f of frames) {
    const bucket = Math.floor(f.time / FINEST);
    const key = `${f.research_id}|${bucket}`;
    let r = fine.get(key);
    if (!r) fine.set(key, (r = channelRollup(f.research_id, FINEST, bucket, f.time, f.time)));
    r.frames++;
    if (f.time < r.firstTime) r.firstTime = f.time;
    if (f.time > r.lastTime) r.lastTime = f.time;
    for (const s of SCALARS) addValue(r.scalars[s], f[s]);
    const values = f.thermocouples;
    if (!values) continue;
    widen(r, values.length);
    const { tMin, tMax, tSum, tN } = r;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      if (v < tMin[i]!) tMin[i] = v;
      if (v > tMax[i]!) tMax[i] = v;
      tSum[i]! += v;
      tN[i]!++;
    }
  }
  const rows: ChannelRollup[] = [...fine.values()];
  for (const width of ROLLUP_WIDTHS.slice(1)) {
    const per = width / FINEST;
    const level = new Map<string, ChannelRollup>();
    for (const f of fine.values()) {
      const bucket = Math.floor(f.bucket / per);
      const key = `${f.researchId}|${bucket}`;
      let r = level.get(key);
      if (!r) level.set(key, (r = channelRollup(f.researchId, width, bucket, f.firstTime, f.lastTime)));
      r.frames += f.frames;
      if (f.firstTime < r.firstTime) r.firstTime = f.firstTime;
      if (f.lastTime > r.lastTime) r.lastTime = f.lastTime;
      for (const s of SCALARS) addStats(r.scalars[s], f.scalars[s]);
      widen(r, f.channels);
      const { tMin, tMax, tSum, tN } = r;
      for (let i = 0; i < f.channels; i++) {
        if (f.tMin[i]! < tMin[i]!) tMin[i] = f.tMin[i]!;
        if (f.tMax[i]! > tMax[i]!) tMax[i] = f.tMax[i]!;
        tSum[i]! += f.tSum[i]!;
        tN[i]! += f.tN[i]!;
      }
    }
    rows.push(...level.values());
  }
  return rows.sort(byKey);
}

/**
 * Frames into reading_rollup_category's rows: per frame and type of the frame's research, the max and
 * the mean over the type's thermocouples that have a value (and are not excluded at the frame's time);
 * then min, max, sum and count of those per bucket. A frame where a type has no value adds only its
 * bucket's row (count 0), as the SQL's join of frames and members does.
 */
export function foldCategoryRollups(
  frames: readonly InsertedFrame[],
  members: readonly RollupMember[],
): CategoryRollup[] {
  // research → type → its members (0-based channel, excluded from).
  const types = new Map<string, Map<string, { index: number; excludedFrom: number | null }[]>>();
  for (const m of members) {
    let byType = types.get(m.research_id);
    if (!byType) types.set(m.research_id, (byType = new Map()));
    let list = byType.get(m.type_name);
    if (!list) byType.set(m.type_name, (list = []));
    list.push({ index: m.thermo_id - 1, excludedFrom: m.excluded_from });
  }
  const fine = new Map<string, CategoryRollup>();
  for (const f of frames) {
    const byType = types.get(f.research_id);
    if (!byType) continue;
    const bucket = Math.floor(f.time / FINEST);
    const values = f.thermocouples;
    for (const [typeName, list] of byType) {
      const key = `${f.research_id}|${bucket}|${typeName}`;
      let r = fine.get(key);
      if (!r)
        fine.set(
          key,
          (r = { researchId: f.research_id, width: FINEST, bucket, typeName, cmax: emptyStats(), cmean: emptyStats() }),
        );
      if (!values) continue;
      let max: number | null = null;
      let sum = 0;
      let n = 0;
      for (const { index, excludedFrom } of list) {
        if (excludedFrom !== null && f.time >= excludedFrom) continue;
        const v = index >= 0 ? values[index] : undefined;
        if (v === null || v === undefined) continue;
        if (max === null || v > max) max = v;
        sum += v;
        n++;
      }
      if (n === 0) continue;
      addValue(r.cmax, max);
      addValue(r.cmean, sum / n);
    }
  }
  const rows: CategoryRollup[] = [...fine.values()];
  for (const width of ROLLUP_WIDTHS.slice(1)) {
    const per = width / FINEST;
    const level = new Map<string, CategoryRollup>();
    for (const f of fine.values()) {
      const bucket = Math.floor(f.bucket / per);
      const key = `${f.researchId}|${bucket}|${f.typeName}`;
      let r = level.get(key);
      if (!r)
        level.set(
          key,
          (r = {
            researchId: f.researchId,
            width,
            bucket,
            typeName: f.typeName,
            cmax: emptyStats(),
            cmean: emptyStats(),
          }),
        );
      addStats(r.cmax, f.cmax);
      addStats(r.cmean, f.cmean);
    }
    rows.push(...level.values());
  }
  return rows.sort((a, b) => byKey(a, b) || (a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0));
}

/**
 * A numeric array parameter as PostgreSQL's array literal (`{21.4,NULL,-0}`): the shortest text that
 * reads back as the same double (or, for a value that came from a real's text, as the same real).
 * Built here rather than by the driver, which quotes and escapes every element.
 */
export function numberArrayLiteral(values: readonly (number | null | undefined)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) literal += ',';
    literal += v === null || v === undefined ? 'NULL' : v === 0 && 1 / v < 0 ? '-0' : String(v);
  }
  return `${literal}}`;
}

/**
 * A parser of a real[] as PostgreSQL prints it: `{24.385,NULL,-3.5}` split and read with Number (each
 * real's text read as float8, like `::text::float8`), faster than the driver's general array parser.
 * Anything else (bounds, nested arrays, quoted elements) goes to `fallback`.
 */
export function realArrayParser(fallback: (text: string) => unknown): (text: string) => unknown {
  return (text) => {
    if (text === '{}') return [];
    if (text.charCodeAt(0) !== 123 /* { */ || text.charCodeAt(1) === 123 || text.includes('"')) return fallback(text);
    const parts = text.slice(1, -1).split(',');
    const values: (number | null)[] = new Array(parts.length);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      values[i] = p === 'NULL' ? null : Number(p);
    }
    return values;
  };
}

/** Type OIDs of the elements of the binary array parameters. */
const FLOAT8_OID = 701;
const INT4_OID = 23;

/**
 * A one-dimensional array without nulls in PostgreSQL's binary format (array_recv), the elements taken
 * from `parts` one after another: the driver sends a Buffer parameter as binary, so the channel sums and
 * counts (tens of thousands a batch at 1 Hz) go as their 8 or 4 bytes each, neither printed nor parsed.
 */
function binaryArray(parts: readonly ArrayLike<number>[], oid: number, size: 4 | 8): Buffer {
  let length = 0;
  for (const p of parts) length += p.length;
  const header = length === 0 ? 12 : 20;
  const buffer = Buffer.allocUnsafe(header + length * (4 + size));
  buffer.writeInt32BE(length === 0 ? 0 : 1, 0); // dimensions
  buffer.writeInt32BE(0, 4); // no nulls
  buffer.writeInt32BE(oid, 8);
  if (length === 0) return buffer;
  buffer.writeInt32BE(length, 12);
  buffer.writeInt32BE(1, 16); // lower bound
  let at = header;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      buffer.writeInt32BE(size, at);
      if (size === 8) buffer.writeDoubleBE(p[i]!, at + 4);
      else buffer.writeInt32BE(p[i]!, at + 4);
      at += 4 + size;
    }
  }
  return buffer;
}

/** A float8[] parameter (binary) of the values of `parts`, one after another. */
export const float8ArrayParameter = (...parts: ArrayLike<number>[]) => binaryArray(parts, FLOAT8_OID, 8);

/** An int[] parameter (binary) of the values of `parts`, one after another. */
export const int4ArrayParameter = (...parts: ArrayLike<number>[]) => binaryArray(parts, INT4_OID, 4);

/**
 * A real[] literal of the minima (or maxima) of `rows`, one after another: a channel without values
 * (±Infinity) is NULL. JSON.stringify writes each number as String does (and a non-finite one as null),
 * faster than concatenating them.
 */
function extremesLiteral(rows: readonly ChannelRollup[], pick: (r: ChannelRollup) => Float64Array): string {
  const parts: string[] = [];
  for (const r of rows)
    if (r.channels > 0) parts.push(JSON.stringify(Array.from(pick(r).subarray(0, r.channels))).slice(1, -1));
  const elements = parts.join(',');
  return `{${elements.includes('null') ? elements.replaceAll('null', 'NULL') : elements}}`;
}

/**
 * The upsert's parameters (readings.queries.ts UPSERT_ROLLUPS_SQL, in its order). Minima and maxima are
 * reals, sent as text: each value's shortest text is the one PostgreSQL printed for the real it came from
 * (a double read from at most 9 digits prints back as them), so it reads back as that very real.
 */
export function rollupParameters(channels: readonly ChannelRollup[], categories: readonly CategoryRollup[]): unknown[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const r of channels) {
    offsets.push(offset);
    offset += r.channels;
  }
  const scalar = (s: Scalar) => [
    numberArrayLiteral(channels.map((r) => r.scalars[s].min)),
    numberArrayLiteral(channels.map((r) => r.scalars[s].max)),
    float8ArrayParameter(channels.map((r) => r.scalars[s].sum)),
    int4ArrayParameter(channels.map((r) => r.scalars[s].n)),
  ];
  const stats = (kind: 'cmax' | 'cmean') => [
    numberArrayLiteral(categories.map((r) => r[kind].min)),
    numberArrayLiteral(categories.map((r) => r[kind].max)),
    float8ArrayParameter(categories.map((r) => r[kind].sum)),
    int4ArrayParameter(categories.map((r) => r[kind].n)),
  ];
  return [
    channels.map((r) => r.researchId),
    int4ArrayParameter(channels.map((r) => r.width)),
    numberArrayLiteral(channels.map((r) => r.bucket)),
    int4ArrayParameter(channels.map((r) => r.frames)),
    float8ArrayParameter(channels.map((r) => r.firstTime)),
    float8ArrayParameter(channels.map((r) => r.lastTime)),
    ...SCALARS.flatMap(scalar),
    int4ArrayParameter(offsets),
    int4ArrayParameter(channels.map((r) => r.channels)),
    extremesLiteral(channels, (r) => r.tMin),
    extremesLiteral(channels, (r) => r.tMax),
    float8ArrayParameter(...channels.map((r) => r.tSum.subarray(0, r.channels))),
    int4ArrayParameter(...channels.map((r) => r.tN.subarray(0, r.channels))),
    categories.map((r) => r.researchId),
    int4ArrayParameter(categories.map((r) => r.width)),
    numberArrayLiteral(categories.map((r) => r.bucket)),
    categories.map((r) => r.typeName),
    ...stats('cmax'),
    ...stats('cmean'),
  ];
}
