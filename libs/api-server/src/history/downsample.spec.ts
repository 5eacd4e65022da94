import { type Bucketing, type CategoryMember, Downsampler, type FrameValues } from './downsample';

const N = Number.NaN;

function frame(time: number, thermocouples: number[] | null, scalars: Partial<FrameValues> = {}): FrameValues {
  return { time, radiance: 1, pressure: 15, pk: 500 + time, thermocouples, ...scalars };
}

function run(bucketing: Bucketing, frames: FrameValues[], members: CategoryMember[] = []) {
  const downsampler = new Downsampler(bucketing, members);
  for (const f of frames) downsampler.add(f);
  const result = downsampler.finish();
  return { ...result, of: (key: string) => result.series.find((s) => s.key === key)! };
}

describe('Downsampler', () => {
  it('makes every frame its own point without bucketing', () => {
    const r = run({ kind: 'raw' }, [frame(0, [20, N]), frame(1.5, [21, 30]), frame(3, [22, N], { pk: null })]);
    expect(r.time).toEqual([0, 1.5, 3]);
    expect(r.series.map((s) => s.key)).toEqual(['radiance', 'pressure', 'pk', 'thermo:1', 'thermo:2']);
    expect(r.of('pk')).toMatchObject({ min: [500, 501.5, null], max: [500, 501.5, null], mean: [500, 501.5, null] });
    expect(r.of('thermo:2')).toMatchObject({
      kind: 'thermocouple',
      thermo_id: 2,
      min: [null, 30, null],
      max: [null, 30, null],
    });
  });

  it("keeps each bucket's min, max and mean (a spike survives in the max), skips empty buckets, and puts the frame at `to` in the last", () => {
    // 0..10 s in 5 buckets of 2 s; nothing between 4 and 8 s.
    const bucketing: Bucketing = { kind: 'buckets', from: 0, width: 2, count: 5 };
    const r = run(bucketing, [
      frame(0, [10]),
      frame(1, [900]),
      frame(2, [12]),
      frame(3, [14]),
      frame(8, [20]),
      frame(10, [30]),
    ]);
    expect(r.time).toEqual([0, 2, 8]);
    expect(r.of('thermo:1')).toMatchObject({ min: [10, 12, 20], max: [900, 14, 30], mean: [455, 13, 25] });
    expect(r.of('pk').mean).toEqual([500.5, 502.5, 509]);
  });

  it('rounds means to 3 decimals and leaves a channel out until it has a value', () => {
    const r = run({ kind: 'buckets', from: 0, width: 3, count: 2 }, [
      frame(0, [1]),
      frame(1, [2]),
      frame(2, [2]),
      frame(3, [1, 7]),
      frame(6, [1, 8]),
    ]);
    expect(r.of('thermo:1').mean).toEqual([1.667, 1]);
    expect(r.of('thermo:2')).toMatchObject({ min: [null, 7], max: [null, 8], mean: [null, 7.5] });
    expect(run({ kind: 'raw' }, [frame(0, [N, 5])]).series.map((s) => s.key)).toEqual([
      'radiance',
      'pressure',
      'pk',
      'thermo:2',
    ]);
  });

  it('summarises each measurement type per frame (max and mean of its thermocouples), then per point', () => {
    const members = [
      { thermoId: 1, typeName: 'Tmax' },
      { thermoId: 2, typeName: 'Tśr i Tmax' },
      { thermoId: 3, typeName: 'Tśr i Tmax' },
      // A marker beyond the frame's channels has no reading.
      { thermoId: 9, typeName: 'Tśr i Tmax' },
    ];
    const r = run(
      { kind: 'buckets', from: 0, width: 10, count: 1 },
      [frame(0, [5, 20, 40]), frame(1, [6, 100, N]), frame(2, [7, N, N])],
      members,
    );
    expect(r.series.map((s) => s.key).slice(-4)).toEqual([
      'category:Tmax:max',
      'category:Tmax:mean',
      'category:Tśr i Tmax:max',
      'category:Tśr i Tmax:mean',
    ]);
    // Frames' maxima 40 and 100 (the third frame has no reading of the type); their means 30 and 100.
    expect(r.of('category:Tśr i Tmax:max')).toMatchObject({
      kind: 'category_max',
      type_name: 'Tśr i Tmax',
      min: [40],
      max: [100],
      mean: [70],
    });
    expect(r.of('category:Tśr i Tmax:mean')).toMatchObject({
      kind: 'category_mean',
      min: [30],
      max: [100],
      mean: [65],
    });
    expect(r.of('category:Tmax:max')).toMatchObject({ min: [5], max: [7], mean: [6] });
  });

  it("leaves an excluded thermocouple out of its type's max and mean from its exclusion on, not its own series", () => {
    const members: CategoryMember[] = [
      { thermoId: 1, typeName: 'A' },
      { thermoId: 2, typeName: 'A', excludedFrom: 2 },
      { thermoId: 3, typeName: 'B', excludedFrom: 1 },
    ];
    const r = run(
      { kind: 'raw' },
      [frame(0, [10, 500, 30]), frame(1, [11, 600, 31]), frame(2, [12, 700, 32]), frame(3, [13, 800, 33])],
      members,
    );
    expect(r.of('category:A:max').max).toEqual([500, 600, 12, 13]);
    expect(r.of('category:A:mean').mean).toEqual([255, 305.5, 12, 13]);
    // Its only member excluded: the type has no value from then on.
    expect(r.of('category:B:max').max).toEqual([30, null, null, null]);
    expect(r.of('thermo:2').max).toEqual([500, 600, 700, 800]);
  });

  it('answers the three scalar series, empty, for frames without values', () => {
    const r = run({ kind: 'raw' }, [frame(0, null, { radiance: null, pressure: null, pk: null })]);
    expect(r.time).toEqual([0]);
    expect(r.series).toEqual([
      { key: 'radiance', kind: 'radiance', min: [null], max: [null], mean: [null] },
      { key: 'pressure', kind: 'pressure', min: [null], max: [null], mean: [null] },
      { key: 'pk', kind: 'pk', min: [null], max: [null], mean: [null] },
    ]);
  });
});
