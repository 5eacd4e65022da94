import { types } from 'pg';
import {
  float8ArrayParameter,
  foldCategoryRollups,
  foldChannelRollups,
  int4ArrayParameter,
  type ChannelRollup,
  type InsertedFrame,
  numberArrayLiteral,
  realArrayParser,
  rollupParameters,
} from './rollup-fold';

const R = '00000000-0000-4000-8000-000000000001';
const S = '00000000-0000-4000-8000-000000000002';

const frame = (
  time: number,
  thermocouples: (number | null)[] | null,
  scalars: Partial<InsertedFrame> = {},
  researchId = R,
): InsertedFrame => ({
  research_id: researchId,
  time,
  radiance: null,
  pressure: null,
  pk: null,
  thermocouples,
  ...scalars,
});

/** A channel rollup's arrays as the table keeps them (null where a channel has no value). */
const arrays = (r: ChannelRollup) => {
  const values = (a: Float64Array | Int32Array) => Array.from(a.subarray(0, r.channels));
  const extremes = (a: Float64Array) => values(a).map((v) => (Number.isFinite(v) ? v : null));
  return [extremes(r.tMin), extremes(r.tMax), values(r.tSum), values(r.tN)];
};

describe('foldChannelRollups', () => {
  it('folds each research and bucket at every width: frames, first and last time, min/max/sum/count per channel and scalar, nulls left out', () => {
    const rows = foldChannelRollups([
      frame(-0.5, [10, null], { pk: 5 }),
      frame(9.5, [12, 3, 7], { pk: null, pressure: 2 }),
      frame(10, null, { pk: 1 }),
      frame(59, [], {}),
      frame(65, [1], {}, S),
    ]);
    expect(
      rows.map((r) => [r.researchId === R ? 'R' : 'S', r.width, r.bucket, r.frames, r.firstTime, r.lastTime]),
    ).toEqual([
      ['R', 10, -1, 1, -0.5, -0.5],
      ['R', 10, 0, 1, 9.5, 9.5],
      ['R', 10, 1, 1, 10, 10],
      ['R', 10, 5, 1, 59, 59],
      ['R', 60, -1, 1, -0.5, -0.5],
      ['R', 60, 0, 3, 9.5, 59],
      ['R', 600, -1, 1, -0.5, -0.5],
      ['R', 600, 0, 3, 9.5, 59],
      ['S', 10, 6, 1, 65, 65],
      ['S', 60, 1, 1, 65, 65],
      ['S', 600, 0, 1, 65, 65],
    ]);
    const minute = rows.find((r) => r.researchId === R && r.width === 60 && r.bucket === 0)!;
    expect(arrays(minute)).toEqual([
      [12, 3, 7],
      [12, 3, 7],
      [12, 3, 7],
      [1, 1, 1],
    ]);
    expect(minute.scalars).toEqual({
      pk: { min: 1, max: 1, sum: 1, n: 1 },
      pressure: { min: 2, max: 2, sum: 2, n: 1 },
      radiance: { min: null, max: null, sum: 0, n: 0 },
    });
    const before = rows.find((r) => r.researchId === R && r.width === 600 && r.bucket === -1)!;
    expect(arrays(before)).toEqual([
      [10, null],
      [10, null],
      [10, 0],
      [1, 0],
    ]);
    // Only null or empty arrays in the bucket: no channel arrays (null in the table).
    expect(rows.find((r) => r.width === 10 && r.bucket === 1)!.channels).toBe(0);
    expect(rows.find((r) => r.width === 10 && r.bucket === 5)!.channels).toBe(0);
  });

  it('merges the finest buckets into the coarser ones: min of mins, max of maxes, sums and counts added', () => {
    const rows = foldChannelRollups([
      frame(1, [5, 1]),
      frame(2, [3, null]),
      frame(15, [8, 0, 4]),
      frame(16, [null, 2]),
    ]);
    const minute = rows.find((r) => r.width === 60)!;
    expect(arrays(minute)).toEqual([
      [3, 0, 4],
      [8, 2, 4],
      [16, 3, 4],
      [3, 3, 1],
    ]);
  });
});

describe('foldCategoryRollups', () => {
  const members = [
    { research_id: R, thermo_id: 1, type_name: 'A', excluded_from: null },
    { research_id: R, thermo_id: 2, type_name: 'A', excluded_from: 20 },
    { research_id: R, thermo_id: 2, type_name: 'B', excluded_from: 20 },
    { research_id: R, thermo_id: 9, type_name: 'B', excluded_from: null },
  ];

  it("takes each frame's max and mean over a type's channels with a value, leaving an excluded one out from its time on", () => {
    const rows = foldCategoryRollups(
      [frame(5, [10, 30]), frame(25, [10, 30]), frame(26, null), frame(27, [null])],
      members,
    );
    const at = (width: number, bucket: number, type: string) =>
      rows.find((r) => r.width === width && r.bucket === bucket && r.typeName === type);
    expect(at(10, 0, 'A')).toMatchObject({
      cmax: { min: 30, max: 30, sum: 30, n: 1 },
      cmean: { min: 20, max: 20, sum: 20, n: 1 },
    });
    expect(at(10, 0, 'B')).toMatchObject({
      cmax: { min: 30, max: 30, sum: 30, n: 1 },
      cmean: { min: 30, max: 30, sum: 30, n: 1 },
    });
    // From 20 s on thermocouple 2 does not count: B has no value left, but its bucket's row is there (count 0), as in SQL.
    expect(at(10, 2, 'A')).toMatchObject({
      cmax: { min: 10, max: 10, sum: 10, n: 1 },
      cmean: { min: 10, max: 10, sum: 10, n: 1 },
    });
    expect(at(10, 2, 'B')).toMatchObject({
      cmax: { min: null, max: null, sum: 0, n: 0 },
      cmean: { min: null, max: null, sum: 0, n: 0 },
    });
    expect(at(60, 0, 'A')).toMatchObject({
      cmax: { min: 10, max: 30, sum: 40, n: 2 },
      cmean: { min: 10, max: 20, sum: 30, n: 2 },
    });
    expect(rows.filter((r) => r.width === 600).map((r) => r.typeName)).toEqual(['A', 'B']);
  });

  it('adds nothing for a research without markers', () => {
    expect(foldCategoryRollups([frame(1, [1], {}, S)], members)).toEqual([]);
  });
});

/** The elements of a one-dimensional binary array without nulls (float8 or int4). */
function binary(buffer: Buffer): number[] {
  expect([buffer.readInt32BE(0), buffer.readInt32BE(4), buffer.readInt32BE(16)]).toEqual([1, 0, 1]);
  const oid = buffer.readInt32BE(8);
  const values: number[] = [];
  for (let at = 20, i = 0; i < buffer.readInt32BE(12); i++) {
    const size = buffer.readInt32BE(at);
    values.push(oid === 701 ? buffer.readDoubleBE(at + 4) : buffer.readInt32BE(at + 4));
    at += 4 + size;
  }
  return values;
}

describe('the rollup parameters', () => {
  it('writes numeric array literals that read back as the same numbers', () => {
    expect(numberArrayLiteral([21.4, null, -0, 0, 1e-7, 1e21, 0.1 + 0.2, undefined])).toBe(
      '{21.4,NULL,-0,0,1e-7,1e+21,0.30000000000000004,NULL}',
    );
    expect(numberArrayLiteral([])).toBe('{}');
  });

  it("reads a real[] as PostgreSQL prints it, and leaves what is not a plain array to the driver's parser", () => {
    const realArray: number = 1021;
    const parse = realArrayParser(types.getTypeParser(realArray, 'text') as (text: string) => unknown);
    expect(parse('{24.385,NULL,-3.5,1e-07,3.4028235e+38}')).toEqual([24.385, null, -3.5, 1e-7, 3.4028235e38]);
    expect(parse('{}')).toEqual([]);
    expect(parse('[0:1]={1,2}')).toEqual([1, 2]);
    expect(parse('{{1,2},{3,4}}')).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('slices the channel arrays of each bucket out of flat arrays, in the order of the SQL', () => {
    const channels = foldChannelRollups([frame(1, [5, 1]), frame(11, null)]);
    const params = rollupParameters(channels, []);
    expect(params).toHaveLength(36);
    expect(params.slice(18, 24).map((p) => (Buffer.isBuffer(p) ? binary(p) : p))).toEqual([
      [0, 2, 2, 4],
      [2, 0, 2, 2],
      '{5,1,5,1,5,1}',
      '{5,1,5,1,5,1}',
      [5, 1, 5, 1, 5, 1],
      [1, 1, 1, 1, 1, 1],
    ]);
  });

  it('writes sums and counts in the binary array format, an empty array without dimensions', () => {
    expect(binary(float8ArrayParameter([0.1, -2.5e300]))).toEqual([0.1, -2.5e300]);
    expect(binary(int4ArrayParameter([7, -1]))).toEqual([7, -1]);
    expect(binary(float8ArrayParameter([1, 2], new Float64Array([3])))).toEqual([1, 2, 3]);
    expect([...float8ArrayParameter([])]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 189]);
  });
});
