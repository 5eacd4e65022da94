/**
 * Reads a one-dimensional real[] into a reused Float64Array, NaN where an element is NULL: either
 * PostgreSQL's text form (`{21.4,22,NULL,-3.5e-05}`) or its binary form (`array_send(thermocouples)`,
 * a bytea the driver hands over as a Buffer), which the database makes for a fraction of the cost of
 * printing every value as decimal text (docs/performance.md, "Reading the frames in binary"). Both give
 * the same numbers: a binary element is taken as the decimal PostgreSQL prints for it (printedReal). The history reads millions of thermocouple
 * values a request: parsed into JavaScript arrays (the driver's array parser, or JSON.parse) each
 * value becomes an object the garbage collector must then trace and free, which costs more than
 * everything else the downsampling does. Digits are folded into the value as they are read: for
 * what float4 prints (at most 9 significant digits, no exponent), `digits / 10^decimals` is the
 * correctly rounded double, the same number `Number(text)` gives. Anything else (an exponent,
 * NaN, Infinity) goes through Number().
 */
export class RealArrayReader {
  private buffer = new Float64Array(1024);

  /** The elements of `stored` (the text or the binary form), valid until the next call. */
  read(stored: string | Buffer): Float64Array {
    return typeof stored === 'string' ? this.readText(stored) : this.readBinary(stored);
  }

  private readText(text: string): Float64Array {
    let start = text.indexOf('{') + 1; // also skips a "[0:2]=" lower-bound prefix
    const end = text.lastIndexOf('}');
    let count = 0;
    while (start < end) {
      let stop = text.indexOf(',', start);
      if (stop < 0 || stop > end) stop = end;
      if (count === this.buffer.length) this.grow();
      this.buffer[count++] = parseElement(text, start, stop);
      start = stop + 1;
    }
    return this.buffer.subarray(0, count);
  }

  /**
   * array_send's layout (PostgreSQL's arrayfuncs.c, array_send): int32 dimensions, int32 has-nulls flag,
   * uint32 element type; per dimension int32 length and int32 lower bound; then per element int32 byte
   * length (-1: NULL) and the float4, big-endian. Elements of every dimension are read in order.
   */
  private readBinary(bytes: Buffer): Float64Array {
    const dimensions = bytes.readInt32BE(0);
    let count = dimensions === 0 ? 0 : 1;
    for (let d = 0; d < dimensions; d++) count *= bytes.readInt32BE(12 + d * 8);
    while (this.buffer.length < count) this.grow();
    let offset = 12 + dimensions * 8;
    for (let i = 0; i < count; i++) {
      const length = bytes.readInt32BE(offset);
      offset += 4;
      if (length === -1) {
        this.buffer[i] = Number.NaN;
        continue;
      }
      if (length !== 4) throw new Error(`real[] element ${i + 1} has ${length} bytes, not 4`);
      this.buffer[i] = printedReal(bytes.readFloatBE(offset));
      offset += 4;
    }
    return this.buffer.subarray(0, count);
  }

  private grow(): void {
    const bigger = new Float64Array(this.buffer.length * 2);
    bigger.set(this.buffer);
    this.buffer = bigger;
  }
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

function parseElement(text: string, start: number, stop: number): number {
  let i = start;
  let negative = false;
  let c = text.charCodeAt(i);
  if (c === 78 /* N */ && stop - start === 4 && text.startsWith('NULL', start)) return Number.NaN;
  if (c === 45 /* - */) {
    negative = true;
    c = text.charCodeAt(++i);
  }
  let digits = 0;
  let sawDigit = false;
  let significant = 0;
  let decimals = -1;
  for (; i < stop; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      sawDigit = true;
      digits = digits * 10 + (c - 48);
      if (digits > 0) significant++;
      if (decimals >= 0) decimals++;
    } else if (c === 46 /* . */ && decimals < 0) {
      decimals = 0;
    } else {
      return Number(text.slice(start, stop));
    }
  }
  if (!sawDigit || significant > 15 || decimals > 22) return Number(text.slice(start, stop));
  const value = decimals > 0 ? digits / POWERS_OF_TEN[decimals]! : digits;
  return negative ? -value : value;
}

/** 10^k for k = 0…12: v·10^k is exact for every float4 v (24 bits of mantissa, 5^12 < 2^28). */
const SCALES = POWERS_OF_TEN.slice(0, 13);
/** Where the fewest decimals are the fewest significant digits (below 2^24 a float4's neighbours are ≤ 1 apart). */
const FAST_BELOW = 2 ** 24;

/**
 * The number `Number(text)` gives for the text PostgreSQL prints for the float4 `value` (float4out: the
 * shortest decimal strictly between the midpoints to `value`'s neighbours, the nearest to `value` among
 * those, an exact tie to the even last digit). Below 2^24 the shortest has the fewest decimals: for
 * k = 0, 1, … the k-decimal numbers nearest `value` are tried (v·10^k is exact; n/10^k is the correctly
 * rounded double, the one `Number()` gives). Elsewhere significant digits are tried one more at a time.
 */
function printedReal(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const magnitude = Math.abs(value);
  if (magnitude < FAST_BELOW) {
    for (const scale of SCALES) {
      const scaled = value * scale;
      const below = Math.floor(scaled);
      const above = below + 1;
      const over = scaled - below;
      const first = over < 0.5 || (over === 0.5 && below % 2 === 0) ? below : above;
      for (const n of first === below ? [below, above] : [above, below]) {
        const decimal = n / scale;
        if (readsBackAs(decimal, value)) return decimal;
      }
    }
  }
  for (let digits = 1; digits < 9; digits++) {
    const decimal = Number(value.toPrecision(digits));
    if (readsBackAs(decimal, value)) return decimal;
  }
  return Number(value.toPrecision(9));
}

const float4 = new Float32Array(1);
const float4Bits = new Uint32Array(float4.buffer);

/** True when `decimal` lies strictly between the midpoints from the float4 `value` to its two neighbours. */
function readsBackAs(decimal: number, value: number): boolean {
  if (Math.fround(decimal) !== value) return false;
  float4[0] = value;
  const bits = float4Bits[0]!;
  float4Bits[0] = bits + 1;
  const away = float4[0]!;
  float4Bits[0] = bits - 1;
  const toward = float4[0]!;
  return decimal !== (value + away) / 2 && decimal !== (value + toward) / 2;
}
