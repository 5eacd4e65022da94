import type { DaqPayload } from '@furnace/contracts';
import { newestAtOrBefore, ReplayWindows, WINDOW_SECONDS } from './replay-windows';

/** A stored test at 1 Hz from `first` to `last`, served by window as the API does (both ends inclusive). */
function storedTest(first: number, last: number, skip: (t: number) => boolean = () => false) {
  const frames: DaqPayload[] = [];
  for (let t = first; t <= last; t++) if (!skip(t)) frames.push({ time: t, pk: 500 + t });
  const requests: [number, number][] = [];
  const resolvers: (() => void)[] = [];
  const fetchWindow = (from: number, to: number) => {
    requests.push([from, to]);
    return new Promise<DaqPayload[]>((resolve) =>
      resolvers.push(() => resolve(frames.filter((f) => f.time >= from && f.time <= to))),
    );
  };
  const answerAll = async () => {
    while (resolvers.length > 0) resolvers.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { fetchWindow, requests, answerAll };
}

describe('the replay windows', () => {
  it('reads the window of a moment once, aligned on the first frame, and finds the frame at or before it', async () => {
    const test = storedTest(-30, 1200);
    const windows = new ReplayWindows(-30, test.fetchWindow);
    expect(windows.frameAt(600)).toBeUndefined();
    windows.ensure(windows.indexOf(600));
    windows.ensure(windows.indexOf(620));
    expect(test.requests).toEqual([[570, 570 + WINDOW_SECONDS]]);
    await test.answerAll();
    expect(windows.frameAt(600)).toEqual({ time: 600, pk: 1100 });
    expect(windows.frameAt(600.7)?.time).toBe(600);
    // 570 + 120 = 690 is the next window's first frame, not this one's last.
    expect(windows.frameAt(689.9)?.time).toBe(689);
    expect(windows.frameAt(690)).toBeUndefined();
  });

  it('reads two windows at a time: a slider dragged over the test is not a read per window passed', async () => {
    const test = storedTest(0, 3600);
    const windows = new ReplayWindows(0, test.fetchWindow);
    for (const index of [1, 2, 3, 4, 5]) windows.ensure(index);
    expect(test.requests.map(([from]) => from)).toEqual([120, 240]);
    await test.answerAll();
    windows.ensure(5);
    expect(test.requests.map(([from]) => from)).toEqual([120, 240, 600]);
  });

  it('shows the last frame before a gap from the window before it', async () => {
    const test = storedTest(0, 600, (t) => t >= 230 && t < 250);
    const windows = new ReplayWindows(0, test.fetchWindow);
    windows.ensure(2);
    await test.answerAll();
    // 240..249 are missing: the frame of 245 is 229, in window 1, not read yet.
    expect(windows.frameAt(245)).toBeUndefined();
    windows.ensure(1);
    await test.answerAll();
    expect(windows.frameAt(245)?.time).toBe(229);
  });

  it('gives the frames between two moments across windows, or null while one is missing', async () => {
    const test = storedTest(0, 600);
    const windows = new ReplayWindows(0, test.fetchWindow);
    windows.ensure(0);
    await test.answerAll();
    expect(windows.framesBetween(100, 130)).toBeNull();
    windows.ensure(1);
    await test.answerAll();
    expect(windows.framesBetween(100, 130)?.map((f) => f.time)).toEqual(Array.from({ length: 30 }, (_, i) => 101 + i));
    expect(windows.framesUpTo(1, 122)?.map((f) => f.time)).toEqual([120, 121, 122]);
    expect(windows.framesUpTo(3, 400)).toBeNull();
  });

  it('keeps a failed read as the error and reads the window again only after the next move', async () => {
    let fail = true;
    const windows = new ReplayWindows(0, (from) =>
      fail ? Promise.reject(new Error('503')) : Promise.resolve([{ time: from }]),
    );
    const changed = jest.fn();
    windows.subscribe(changed);
    windows.ensure(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(windows.error()).toEqual(new Error('503'));
    expect(windows.isLoaded(0)).toBe(false);
    fail = false;
    // Not asked again by itself…
    windows.ensure(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(windows.isLoaded(0)).toBe(false);
    // …but once the user moves.
    windows.retryFailed();
    windows.ensure(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(windows.error()).toBeNull();
    expect(windows.frameAt(0)).toEqual({ time: 0 });
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('bisects to the newest frame not after a time', () => {
    const frames = [1, 2, 4, 8].map((time) => ({ time }));
    expect(newestAtOrBefore(frames, 0)).toBeNull();
    expect(newestAtOrBefore(frames, 4)?.time).toBe(4);
    expect(newestAtOrBefore(frames, 7.9)?.time).toBe(4);
    expect(newestAtOrBefore(frames, 100)?.time).toBe(8);
  });
});
