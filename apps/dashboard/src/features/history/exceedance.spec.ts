import { chartCategories } from '../charts/categories';
import { historyFromFrames, newFrames, newMarker } from '../charts/test-factories';
import { exceedanceRows, firstExceedance, refineExceedance, refinementRanges } from './exceedance';

const markers = [
  newMarker({ thermo_id: 1, type_name: 'Tśr i Tmax' }),
  newMarker({ thermo_id: 2, type_name: 'Tśr i Tmax' }),
  newMarker({ thermo_id: 3, type_name: 'Tmax' }),
  newMarker({ thermo_id: 4, type_name: 'T' }),
];
const categories = chartCategories(markers);

/** T1 rises 0.1 °C/s from 20 °C; T2 stays 20 °C lower; T3 has one spike at 2 000 s; T4 has no threshold. */
const frames = newFrames(0, 3600, 1, (t) => {
  const t1 = Math.round((20 + t * 0.1) * 10) / 10;
  return { thermocouples_out: [t1, t1 - 20, t === 2000 ? 250 : 30, 500] };
});

describe('firstExceedance', () => {
  it('finds the first frame strictly above the critical value in a raw history', () => {
    const raw = historyFromFrames(frames, markers, 10_000);
    // T1 = 180 at t = 1600 (not above), 180.1 at 1601.
    expect(firstExceedance(raw, 'category:Tśr i Tmax:max', 180)).toEqual({
      time: 1601,
      value: 180.1,
      exact: true,
      range: { from: 1601, to: 1602 },
    });
    expect(firstExceedance(raw, 'category:Tmax:max', 180)?.time).toBe(2000);
    expect(firstExceedance(raw, 'category:Tmax:max', 250)).toBeNull();
    expect(firstExceedance(raw, 'nope', 1)).toBeNull();
  });

  it('finds the bucket from a downsampled history: one bucket of precision', () => {
    const bucketed = historyFromFrames(frames, markers, 100); // 36 s buckets
    const e = firstExceedance(bucketed, 'category:Tśr i Tmax:max', 180);
    expect(e?.exact).toBe(false);
    expect(e?.time).toBe(1584); // bucket 44: 1584…1619
    expect(e?.range).toEqual({ from: 1584, to: 1620 });
    // The spike of one frame survives in its bucket's max.
    const spike = firstExceedance(bucketed, 'category:Tmax:max', 180);
    expect(spike && spike.range.from <= 2000 && 2000 < spike.range.to).toBe(true);
  });
});

describe('exceedanceRows and their refinement', () => {
  it('lists max and mean of the categories with critical values, and makes them exact from the bucket read again', () => {
    const bucketed = historyFromFrames(frames, markers, 100);
    const rows = exceedanceRows(bucketed, categories);
    expect(rows.map((r) => [r.typeName, r.kind, r.critical])).toEqual([
      ['Tśr i Tmax', 'max', 180],
      ['Tśr i Tmax', 'mean', 140],
      ['Tmax', 'max', 180],
    ]);
    const ranges = refinementRanges(rows);
    expect(ranges).toHaveLength(3);
    const refined = rows.map((row) => {
      const e = row.exceedance!;
      const detail = historyFromFrames(
        frames.filter((f) => f.time >= e.range.from && f.time <= e.range.to),
        markers,
        10_000,
      );
      return refineExceedance(row, detail).exceedance;
    });
    // Mean of T1 and T1 - 20 = T1 - 10 > 140 ⇔ T1 > 150 ⇔ t > 1300.
    expect(refined.map((e) => [e?.time, e?.exact])).toEqual([
      [1601, true],
      [1301, true],
      [2000, true],
    ]);
  });

  it('keeps the estimate when the detail does not cover the bucket, and says when nothing was exceeded', () => {
    const cool = newFrames(0, 100, 1, () => ({ thermocouples_out: [20, 20, 20, 20] }));
    const rows = exceedanceRows(historyFromFrames(cool, markers), categories);
    expect(rows.every((r) => r.exceedance === null)).toBe(true);
    expect(refinementRanges(rows)).toEqual([]);

    const bucketed = historyFromFrames(frames, markers, 100);
    const row = exceedanceRows(bucketed, categories)[0]!;
    const elsewhere = historyFromFrames(
      frames.filter((f) => f.time < 100),
      markers,
      10_000,
    );
    expect(refineExceedance(row, elsewhere)).toBe(row);
    expect(refineExceedance(row, undefined)).toBe(row);
  });
});
