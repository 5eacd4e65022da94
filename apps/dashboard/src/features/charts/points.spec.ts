import { iso834 } from '@furnace/contracts';
import { historyPoints, iso834Along } from './points';

describe('historyPoints', () => {
  it('draws raw frames as they are (seconds → ms)', () => {
    const history = { time: [0, 1.5, 3], bucket_seconds: 0 };
    expect(historyPoints(history, { min: [1, 2, null], max: [1, 2, null] })).toEqual([
      [0, 1],
      [1500, 2],
      [3000, null],
    ]);
  });

  it('draws a bucket as its min then its max at its time, one point when they are equal', () => {
    const history = { time: [0, 10, 20], bucket_seconds: 10 };
    expect(historyPoints(history, { min: [20, 21, null], max: [25, 21, null] })).toEqual([
      [0, 20],
      [0, 25],
      [10_000, 21],
      [20_000, null],
    ]);
  });
});

describe('iso834Along', () => {
  it('gives the standard curve at each time of the furnace series, once per time', () => {
    const pk: [number, number | null][] = [
      [0, 20],
      [60_000, 500],
      [60_000, 560],
      [3_600_000, null],
    ];
    expect(iso834Along(pk)).toEqual([
      [0, 20],
      [60_000, Math.round(iso834(60) * 10) / 10],
      [3_600_000, Math.round(iso834(3600) * 10) / 10],
    ]);
    expect(iso834Along([])).toEqual([]);
  });
});
