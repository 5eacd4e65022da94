import type { DaqPayload } from './daq';
import { createFrameSource, insertionIndex } from './live-order';

const frame = (time: number): DaqPayload => ({ time, pk: 500 + time });

describe('createFrameSource: ordering by time on the client', () => {
  it('shows the newest frame by time: a late frame never steps the overlay and side panel back', () => {
    const source = createFrameSource();
    const newest: number[] = [];
    source.subscribe((f) => newest.push(f.time));
    for (const t of [1, 3, 2, 4]) source.push(frame(t));
    expect(newest).toEqual([1, 3, 4]);
    expect(source.latest()).toEqual(frame(4));
    source.push(frame(3.5));
    expect(source.latest()).toEqual(frame(4));
  });

  it('passes every frame on once, late ones included, and drops a redelivered one', () => {
    const source = createFrameSource();
    const all: number[] = [];
    const newest: number[] = [];
    source.subscribeAll((f) => all.push(f.time));
    source.subscribe((f) => newest.push(f.time));
    for (const t of [1, 3, 2, 3, 1, 4, 2]) source.push(frame(t));
    expect(all).toEqual([1, 3, 2, 4]);
    expect(newest).toEqual([1, 3, 4]);
  });

  it('stops calling a listener once unsubscribed', () => {
    const source = createFrameSource();
    const seen: number[] = [];
    const stop = source.subscribeAll((f) => seen.push(f.time));
    source.push(frame(1));
    stop();
    source.push(frame(2));
    expect(seen).toEqual([1]);
    expect(source.latest()?.time).toBe(2);
  });
});

describe('createFrameSource: gaps', () => {
  it('tells its gap listeners when frames may have been missed', () => {
    const source = createFrameSource();
    const gap = jest.fn();
    const stop = source.subscribeGap(gap);
    source.markGap();
    stop();
    source.markGap();
    expect(gap).toHaveBeenCalledTimes(1);
  });
});

describe('insertionIndex', () => {
  it('places a point after every point not later than it', () => {
    const points: [number, number][] = [
      [1, 0],
      [3, 0],
      [3, 1],
      [5, 0],
    ];
    expect([0, 1, 2, 3, 4, 6].map((t) => insertionIndex(points, t))).toEqual([0, 1, 1, 3, 3, 4]);
    expect(insertionIndex([], 1)).toBe(0);
  });
});
