/**
 * Reads PostgreSQL's text form of a one-dimensional real[] (`{21.4,22,NULL,-3.5e-05}`) into a
 * reused Float64Array, NaN where an element is NULL. The history reads millions of thermocouple
 * values a request: parsed into JavaScript arrays (the driver's array parser, or JSON.parse) each
 * value becomes an object the garbage collector must then trace and free, which costs more than
 * everything else the downsampling does. Digits are folded into the value as they are read: for
 * what float4 prints (at most 9 significant digits, no exponent), `digits / 10^decimals` is the
 * correctly rounded double, the same number `Number(text)` gives. Anything else (an exponent,
 * NaN, Infinity) goes through Number().
 */
export class RealArrayReader {
  private buffer = new Float64Array(1024);

  /** The elements of `text`, valid until the next call. */
  read(text: string): Float64Array {
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
