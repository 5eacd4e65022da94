import type { CriteriaFrame } from '@furnace/contracts';
import type { RealArrayReader } from '../history/real-array';
import type { StoredFrameRow } from '../history/stored-frame';

/*
 * The stored frames as the criteria keeper reads them for a pass (docs/architecture.md, "The criteria:
 * computed once, kept, pushed"): one page of a research's frames in time order through
 * `COPY (SELECT …) TO STDOUT (FORMAT binary)`. A 24-hour test at 1 Hz with 300 thermocouples is 26
 * million readings: as text, PostgreSQL spends ~2 s formatting them and the API as long again turning
 * the text into strings and the strings into numbers; in COPY's binary form the server sends each real
 * as its 4 bytes (array_send) and the API reads them straight into a Float64Array. Each real is taken as
 * the number its text form reads as (see fromReal), so a pass over the binary form equals one over the text
 * (exports, the report, the history) to the last bit. COPY takes no parameters: the research id and the
 * time bound are checked (a UUID, a finite number) and written into the statement.
 */

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The double that PostgreSQL's text form of the real `f` (a float32 value) reads as: float4out writes the
 * shortest decimal that reads back as the same float32 (the nearest such one), and the API reads that
 * decimal as a double (RealArrayReader, the driver's parseFloat). For a magnitude below 10^6 the shortest
 * decimal is the one with the fewest digits after the point: the nearest decimal with k digits is
 * round(|f|·10^k) / 10^k (a tie to the even one, as float4out; both operands exact, the quotient the
 * correctly rounded double, as the text is read). Larger magnitudes (no temperature, pressure or radiance) take the slow way, by digits.
 */
export function fromReal(f: number): number {
  const a = Math.abs(f);
  if (a === 0 || !Number.isFinite(a)) return f;
  if (a < 1e6) {
    for (let k = 0; k < POWERS_OF_TEN.length; k++) {
      const power = POWERS_OF_TEN[k]!;
      const scaled = a * power;
      let n = Math.round(scaled);
      // Halfway between two decimals (a·10^k is exact here): float4out rounds to the even one.
      if (n - scaled === 0.5 && n % 2 === 1) n -= 1;
      if (n >= 2 ** 53) break;
      const d = n / power;
      if (Math.fround(d) === a) return f < 0 ? -d : d;
    }
  }
  for (let digits = 1; digits <= 9; digits++) {
    const d = Number(a.toPrecision(digits));
    if (Math.fround(d) === a) return f < 0 ? -d : d;
  }
  return f;
}

/**
 * The COPY of one page: research `researchId`'s frames after `after` (s) in time order, `skip` of them
 * passed over, at most `limit`.
 */
export function framesCopySql(researchId: string, after: number | null, limit: number, skip = 0): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(researchId)) throw new Error(`not a research id: ${researchId}`);
  if (after !== null && !Number.isFinite(after)) throw new Error(`not a frame time: ${after}`);
  if (!Number.isInteger(limit) || limit <= 0 || !Number.isInteger(skip) || skip < 0) throw new Error(`not a page: ${skip}, ${limit}`);
  // String(after) is the shortest text that reads back as the same double: "time" > it is exactly the keyset bound.
  const bound = after === null ? '' : ` AND "time" > ${String(after)}::float8`;
  return `COPY (SELECT "time", radiance, pressure, pk, thermocouples, faults FROM reading WHERE research_id = '${researchId}'${bound} ORDER BY "time" OFFSET ${skip} LIMIT ${limit}) TO STDOUT (FORMAT binary)`;
}

/** The bytes of a COPY … TO STDOUT, collected (pg's "submittable": the client hands it the protocol messages of its statement). */
export class CopyOut {
  private size = 0;
  private error: Error | null = null;
  private settle!: { resolve: (bytes: Buffer) => void; reject: (error: Error) => void };
  readonly done: Promise<Buffer>;

  /**
   * `bytes`: where the page goes, grown by doubling (a buffer handed back from an earlier page, so a pass
   * does not make ~15 MB of new buffers a page for the garbage collector); the grown one is `done`'s.
   */
  constructor(
    readonly text: string,
    private bytes: Buffer = Buffer.allocUnsafe(1 << 16),
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  /** The buffer the page was read into, whole (to be handed to the next CopyOut). */
  get buffer(): Buffer {
    return this.bytes;
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  /** A CopyData message: its chunk is a view into the connection's read buffer, copied before the next read. */
  handleCopyData(message: { chunk: Buffer }): void {
    const chunk = message.chunk;
    if (this.size + chunk.length > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.size + chunk.length));
      bigger.set(this.bytes.subarray(0, this.size));
      this.bytes = bigger;
    }
    this.bytes.set(chunk, this.size);
    this.size += chunk.length;
  }

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    if (this.error) this.settle.reject(this.error);
    else this.settle.resolve(this.bytes.subarray(0, this.size));
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
}

const SIGNATURE = 'PGCOPY\n\xff\r\n\0';
/** fromReal's results by the real's bits (direct-mapped): a test's readings repeat (one or two decimals). */
const CACHE_BITS = 16;
const CACHE_MASK = (1 << CACHE_BITS) - 1;
/** A NaN's bits: fromReal of any NaN is NaN, the value an empty slot holds. */
const EMPTY_SLOT = 0x7fffffff;
/** One cache for the process (fromReal is a function of the bits alone): 768 kB. */
const CACHE_KEYS = new Int32Array(1 << CACHE_BITS).fill(EMPTY_SLOT);
const CACHE_VALUES = new Float64Array(1 << CACHE_BITS).fill(Number.NaN);
const HEADER = 11 + 4 + 4;

/**
 * The frames of one page decoded from COPY's binary form: columns, the thermocouples of frame k at
 * values[offsets[k] .. offsets[k] + lengths[k]] (NaN where an element is NULL; length −1 for a NULL array).
 */
export class FramePage {
  count = 0;
  time = new Float64Array(0);
  radiance = new Float64Array(0);
  pressure = new Float64Array(0);
  pk = new Float64Array(0);
  offsets = new Int32Array(0);
  lengths = new Int32Array(0);
  values = new Float64Array(0);
  faults: (number[] | null)[] = [];

  /** fromReal of the real at byte `at` of `view`. */
  private real(view: DataView, at: number): number {
    const bits = view.getInt32(at);
    const slot = (bits ^ (bits >>> CACHE_BITS)) & CACHE_MASK;
    if (CACHE_KEYS[slot] === bits) return CACHE_VALUES[slot]!;
    const value = fromReal(view.getFloat32(at));
    CACHE_KEYS[slot] = bits;
    CACHE_VALUES[slot] = value;
    return value;
  }

  /** Reads `bytes` (a whole COPY … (FORMAT binary) of the six columns of framesCopySql). */
  decode(bytes: Buffer): this {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < HEADER || bytes.toString('latin1', 0, 11) !== SIGNATURE) throw new Error('not a binary COPY');
    let p = HEADER + view.getInt32(15);
    this.count = 0;
    this.faults.length = 0;
    let used = 0;
    for (;;) {
      const fields = view.getInt16(p);
      p += 2;
      if (fields === -1) break;
      if (fields !== 6) throw new Error(`a frame of ${fields} columns`);
      const k = this.count++;
      this.reserveRows(this.count);
      let length = view.getInt32(p);
      p += 4;
      this.time[k] = view.getFloat64(p);
      p += length;
      for (const column of [this.radiance, this.pressure, this.pk]) {
        length = view.getInt32(p);
        p += 4;
        column[k] = length === -1 ? Number.NaN : this.real(view, p);
        if (length > 0) p += length;
      }
      // thermocouples: real[] as array_send writes it.
      length = view.getInt32(p);
      p += 4;
      this.offsets[k] = used;
      if (length === -1) {
        this.lengths[k] = -1;
      } else {
        const end = p + length;
        const ndim = view.getInt32(p);
        let n = ndim === 0 ? 0 : 1;
        for (let d = 0; d < ndim; d++) n *= view.getInt32(p + 12 + 8 * d);
        let q = p + 12 + 8 * ndim;
        this.reserveValues(used + n);
        const values = this.values;
        for (let i = 0; i < n; i++) {
          const size = view.getInt32(q);
          q += 4;
          if (size === 4) {
            values[used + i] = this.real(view, q);
            q += 4;
          } else {
            values[used + i] = Number.NaN;
            if (size > 0) q += size;
          }
        }
        this.lengths[k] = n;
        used += n;
        p = end;
      }
      // faults: smallint[] (thermo_ids).
      length = view.getInt32(p);
      p += 4;
      let faults: number[] | null = null;
      if (length > 0) {
        const ndim = view.getInt32(p);
        let n = ndim === 0 ? 0 : 1;
        for (let d = 0; d < ndim; d++) n *= view.getInt32(p + 12 + 8 * d);
        let q = p + 12 + 8 * ndim;
        faults = [];
        for (let i = 0; i < n; i++) {
          const size = view.getInt32(q);
          q += 4;
          if (size === 2) faults.push(view.getInt16(q));
          if (size > 0) q += size;
        }
        p += length;
      }
      this.faults.push(faults);
    }
    return this;
  }

  /** The same page from rows read as text (where COPY is not served: see CriteriaRepository.framePages). */
  fill(rows: readonly StoredFrameRow[], reader: RealArrayReader): this {
    this.count = 0;
    this.faults.length = 0;
    let used = 0;
    const orNaN = (x: number | null) => (x === null ? Number.NaN : x);
    for (const row of rows) {
      const k = this.count++;
      this.reserveRows(this.count);
      this.time[k] = row.time;
      this.radiance[k] = orNaN(row.radiance);
      this.pressure[k] = orNaN(row.pressure);
      this.pk[k] = orNaN(row.pk);
      this.offsets[k] = used;
      if (row.thermocouples === null) {
        this.lengths[k] = -1;
      } else {
        const values = reader.read(row.thermocouples);
        this.reserveValues(used + values.length);
        this.values.set(values, used);
        this.lengths[k] = values.length;
        used += values.length;
      }
      this.faults.push(row.faults);
    }
    return this;
  }

  /** Frame k as the engine takes it; its thermocouples a view into this page (valid until the next decode). */
  frame(k: number): CriteriaFrame {
    const orNull = (x: number) => (Number.isNaN(x) ? null : x);
    const frame: CriteriaFrame = { time: this.time[k]!, pk: orNull(this.pk[k]!), pressure: orNull(this.pressure[k]!), radiance: orNull(this.radiance[k]!) };
    const length = this.lengths[k]!;
    if (length >= 0) frame.thermocouples_out = this.values.subarray(this.offsets[k]!, this.offsets[k]! + length);
    const faults = this.faults[k];
    if (faults && faults.length > 0) frame.faults = faults;
    return frame;
  }

  private reserveRows(rows: number): void {
    if (rows <= this.time.length) return;
    const size = Math.max(rows, this.time.length * 2, 256);
    const grow = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.time = grow(this.time, (n) => new Float64Array(n));
    this.radiance = grow(this.radiance, (n) => new Float64Array(n));
    this.pressure = grow(this.pressure, (n) => new Float64Array(n));
    this.pk = grow(this.pk, (n) => new Float64Array(n));
    this.offsets = grow(this.offsets, (n) => new Int32Array(n));
    this.lengths = grow(this.lengths, (n) => new Int32Array(n));
  }

  private reserveValues(values: number): void {
    if (values <= this.values.length) return;
    const next = new Float64Array(Math.max(values, this.values.length * 2, 4096));
    next.set(this.values);
    this.values = next;
  }
}
