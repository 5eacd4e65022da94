import { RealArrayReader } from './real-array';

const read = (text: string) => Array.from(new RealArrayReader().read(text));

describe('RealArrayReader', () => {
  it('reads the text form of a real[] with NaN for NULL', () => {
    expect(read('{21.4,22,NULL,-3.5,0.05,-0}')).toEqual([21.4, 22, Number.NaN, -3.5, 0.05, -0]);
    expect(read('{}')).toEqual([]);
    expect(read('{NULL}')).toEqual([Number.NaN]);
  });

  it('gives exactly the number Number() gives, for what float4 prints and for what it prints rarely', () => {
    // What PostgreSQL prints for reals: shortest round-trip decimals, exponents at the extremes.
    let seed = 834;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts: string[] = [
      '1e+30',
      '-1.5e-05',
      '3.4028235e+38',
      'NaN',
      'Infinity',
      '-Infinity',
      '123456789',
      '0.000123456789',
      '1200',
    ];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(random() * 8 - 3);
      const value = Math.fround((random() - 0.3) * magnitude * 10);
      texts.push(String(Number(value.toPrecision(1 + Math.floor(random() * 9)))));
    }
    const values = read(`{${texts.join(',')}}`);
    expect(values).toHaveLength(texts.length);
    texts.forEach((text, i) => expect(Object.is(values[i], Number(text))).toBe(true));
  });

  it('skips a lower-bound prefix and grows past 1024 elements', () => {
    expect(read('[0:2]={1,2,3}')).toEqual([1, 2, 3]);
    const many = Array.from({ length: 3000 }, (_, i) => i / 10);
    expect(read(`{${many.join(',')}}`)).toEqual(many);
  });

  it('reuses its buffer: a result is valid until the next read', () => {
    const reader = new RealArrayReader();
    const first = reader.read('{1,2}');
    expect(Array.from(first)).toEqual([1, 2]);
    reader.read('{3,4}');
    expect(Array.from(first)).toEqual([3, 4]);
  });
});
