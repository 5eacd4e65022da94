import { framesToDraw, frameValues, LiveSeriesStore } from './live-series';
import { RecentTimes } from '@furnace/contracts';
import { historyFromFrames, newFrame, newFrames, newMarker } from './test-factories';

const markers = [
  newMarker({ thermo_id: 1, type_name: 'Tśr i Tmax', name: 'T1' }),
  newMarker({ thermo_id: 2, type_name: 'Tśr i Tmax', name: 'T2' }),
  newMarker({ thermo_id: 3, type_name: 'Tmax', name: 'T3', color_hex: '#1E88E5' }),
];
const KEYS = ['pk', 'category:Tśr i Tmax:max', 'category:Tśr i Tmax:mean', 'category:Tmax:max', 'category:Tmax:mean'];
const times = (points: readonly (readonly [number, unknown])[]) => points.map((p) => p[0]);

describe('framesToDraw', () => {
  it('keeps the frames after last_time, in order, each once', () => {
    const frames = [102, 99, 100, 101, 101, 103].map((t) => newFrame(t));
    expect(framesToDraw(100, new RecentTimes(), frames).map((f) => f.time)).toEqual([101, 102, 103]);
  });

  it('keeps everything when no frame was stored yet', () => {
    expect(framesToDraw(null, new RecentTimes(), [newFrame(0), newFrame(1)]).map((f) => f.time)).toEqual([0, 1]);
  });

  it('keeps a late frame not drawn yet and drops one drawn before', () => {
    const drawn = new RecentTimes();
    expect(
      framesToDraw(
        100,
        drawn,
        [101, 103].map((t) => newFrame(t)),
      ).map((f) => f.time),
    ).toEqual([101, 103]);
    expect(
      framesToDraw(
        100,
        drawn,
        [102, 103, 104].map((t) => newFrame(t)),
      ).map((f) => f.time),
    ).toEqual([102, 104]);
  });
});

describe('frameValues', () => {
  it('gives pk and each category max and mean of the frame (categoryStats)', () => {
    const values = frameValues(newFrame(5, { pk: 700, thermocouples_out: [100, 200, 50] }), markers);
    expect(Object.fromEntries(values)).toEqual({
      pk: 700,
      'category:Tśr i Tmax:max': 200,
      'category:Tśr i Tmax:mean': 150,
      'category:Tmax:max': 50,
      'category:Tmax:mean': 50,
    });
    expect(
      frameValues(newFrame(6, { pk: undefined, thermocouples_out: [null, null, null] }), markers).get(
        'category:Tmax:max',
      ),
    ).toBeNull();
  });
});

describe('LiveSeriesStore: history then the live tail', () => {
  it('continues the history with the frames after its last_time: no gap, no duplicate', () => {
    const stored = newFrames(0, 100, 1, (t) => ({ thermocouples_out: [t, t / 2, 10] }));
    const store = new LiveSeriesStore(KEYS, markers);
    store.loadHistory(historyFromFrames(stored, markers));
    // The socket delivers what was stored before the history was read, twice, and out of order.
    const changed = store.append(
      [99, 100, 101, 103, 102, 102].map((t) => newFrame(t, { thermocouples_out: [t, t / 2, 10] })),
    );
    expect(changed).toEqual(KEYS);
    const pk = times(store.points('pk'));
    expect(pk).toEqual(Array.from({ length: 104 }, (_, i) => i * 1000));
    expect(store.points('category:Tśr i Tmax:max').at(-1)).toEqual([103_000, 103]);
    expect(store.points('category:Tśr i Tmax:mean').at(-1)).toEqual([103_000, 77.25]);
    expect(store.lastTime).toBe(103);
    // A redelivery later changes nothing.
    expect(store.append([newFrame(103)])).toEqual([]);
  });

  it('appends after a bucketed history from the bucket maxima on', () => {
    const stored = newFrames(0, 3600, 1, (t) => ({ thermocouples_out: [t === 1234 ? 900 : 20, 20, 20] }));
    const store = new LiveSeriesStore(KEYS, markers);
    store.loadHistory(historyFromFrames(stored, markers, 750));
    const max = store.points('category:Tśr i Tmax:max');
    expect(max.length).toBeLessThanOrEqual(1500);
    expect(max.some((p) => p[1] === 900)).toBe(true);
    store.append([newFrame(3601, { thermocouples_out: [25, 25, 25] })]);
    expect(store.points('category:Tśr i Tmax:max').at(-1)).toEqual([3_601_000, 25]);
  });

  it('holds at most 2 000 points per series through a long test, keeping a spike of the live tail', () => {
    const store = new LiveSeriesStore(KEYS, markers);
    store.loadHistory(historyFromFrames(newFrames(0, 3600, 1), markers, 750));
    let most = 0;
    for (let t = 3601; t < 3601 + 20_000; t += 10) {
      const batch = Array.from({ length: 10 }, (_, i) =>
        newFrame(t + i, { thermocouples_out: [t + i === 15_000 ? 999 : 30, 30, 30] }),
      );
      store.append(batch);
      for (const key of KEYS) most = Math.max(most, store.points(key).length);
    }
    expect(most).toBeLessThanOrEqual(2000);
    expect(store.points('category:Tśr i Tmax:max').some((p) => p[1] === 999)).toBe(true);
    expect(store.lastTime).toBe(23_600);
  });

  it('puts a late frame (from another ingest) in its place: the curves never go back in time', () => {
    const store = new LiveSeriesStore(KEYS, markers);
    store.loadHistory(
      historyFromFrames(
        newFrames(0, 10, 1, (t) => ({ thermocouples_out: [t, t, t] })),
        markers,
      ),
    );
    const live = (t: number) => newFrame(t, { pk: 500 + t, thermocouples_out: [t, t, t] });
    store.append([live(11), live(13)]);
    // 12 arrives after 13, alone in its batch; 14 and a redelivered 12 come next.
    expect(store.append([live(12)])).toEqual(KEYS);
    store.append([live(14), live(12)]);
    for (const key of KEYS) {
      const t = times(store.points(key));
      expect(t).toEqual([...t].sort((a, b) => a - b));
      expect(new Set(t).size).toBe(t.length);
    }
    expect(times(store.points('pk')).slice(-5)).toEqual([10_000, 11_000, 12_000, 13_000, 14_000]);
    expect(store.points('pk').slice(-3)).toEqual([
      [12_000, 512],
      [13_000, 513],
      [14_000, 514],
    ]);
    expect(store.lastTime).toBe(14);
    // Everything at or before the history's last_time is in the history already.
    expect(store.append([live(9.5)])).toEqual([]);
  });

  it('starts empty without a history (it could not be read) and draws what arrives', () => {
    const store = new LiveSeriesStore(KEYS, markers);
    expect(store.isLoaded).toBe(false);
    store.loadHistory(null);
    store.append([newFrame(5), newFrame(6)]);
    expect(times(store.points('pk'))).toEqual([5000, 6000]);
  });
});
