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
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const dimensions = view.getInt32(0);
    let count = dimensions === 0 ? 0 : 1;
    for (let d = 0; d < dimensions; d++) count *= view.getInt32(12 + d * 8);
    while (this.buffer.length < count) this.grow();
    let offset = 12 + dimensions * 8;
    for (let i = 0; i < count; i++) {
      const length = view.getInt32(offset);
      offset += 4;
      if (length === -1) {
        this.buffer[i] = Number.NaN;
        continue;
      }
      if (length !== 4) throw new Error(`real[] element ${i + 1} has ${length} bytes, not 4`);
      this.buffer[i] = printedReal(view.getUint32(offset));
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

/** Decimals tried: v·10^k is exact for every float4 v while k ≤ 12 (24 bits of mantissa, 5^12 < 2^28). */
const MAX_DECIMALS = 12;
/** Where the fewest decimals are the fewest significant digits (below 2^24 a float4's neighbours are ≤ 1 apart). */
const FAST_BELOW = 2 ** 24;
/** 2^(e − 151) for each biased exponent e: half the gap from a float4 of that exponent to the next one up. */
const HALF_GAP = Array.from({ length: 256 }, (_, e) => 2 ** (Math.max(e, 1) - 151));

const float4 = new Float32Array(1);
const float4Bits = new Uint32Array(float4.buffer);

/**
 * The number `Number(text)` gives for the text PostgreSQL prints for the float4 of the given bits (float4out:
 * the shortest decimal strictly between the midpoints to its neighbours, the nearest to it among those, an
 * exact tie to the even last digit). Below 2^24 the shortest has the fewest decimals: for k = 0, 1, … the two
 * k-decimal numbers around the value are tried, the nearer first (v·10^k is exact; n/10^k is the correctly
 * rounded double, the one `Number()` gives). Elsewhere significant digits are tried one more at a time.
 */
function printedReal(bits: number): number {
  float4Bits[0] = bits;
  const value = float4[0]!;
  if (!Number.isFinite(value) || value === 0) return value;
  // The midpoints to the neighbours: half a gap up, and down (a quarter where the gap below is half as wide).
  const exponent = (bits >>> 23) & 0xff;
  const up = HALF_GAP[exponent]!;
  const down = (bits & 0x7fffff) === 0 && exponent > 1 ? up / 2 : up;
  const above = value > 0 ? value + up : value - up;
  const below = value > 0 ? value - down : value + down;
  if (Math.abs(value) < FAST_BELOW) {
    let scale = 1;
    for (let k = 0; k <= MAX_DECIMALS; k++, scale *= 10) {
      const scaled = value * scale;
      const floor = Math.floor(scaled);
      const over = scaled - floor;
      const nearer = over < 0.5 || (over === 0.5 && floor % 2 === 0) ? floor : floor + 1;
      if (inside(nearer / scale, value, above, below)) return nearer / scale;
      const farther = nearer === floor ? floor + 1 : floor;
      if (inside(farther / scale, value, above, below)) return farther / scale;
    }
  }
  for (let digits = 1; digits < 9; digits++) {
    const decimal = Number(value.toPrecision(digits));
    if (inside(decimal, value, above, below)) return decimal;
  }
  return Number(value.toPrecision(9));
}

/** True when `decimal` reads back as the float4 `value` and is not one of its midpoints `above` and `below`. */
function inside(decimal: number, value: number, above: number, below: number): boolean {
  return Math.fround(decimal) === value && decimal !== above && decimal !== below;
}
