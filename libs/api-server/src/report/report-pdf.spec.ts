import { categoryChartSvg, categoryLimits, furnaceChartSvg, seriesPoints } from './report-charts';
import { samplingInterval, testEnd, thermoName, withRise } from './report-pdf';
import { reportTexts } from './report-text';

const limits = {
  mean: { k: 140, c: 160.5, text: 'T0 + 140 K = 160.5 °C' },
  max: { k: 180, c: 200.5, text: 'T0 + 180 K = 200.5 °C' },
  frame: { k: 360, c: 380.5, text: 'T0 + 360 K = 380.5 °C' },
};
const category = (role: { mean: boolean; max: boolean; frame: boolean }) => ({ type_name: 'Tśr i Tmax', role, max: null, mean: null, max_rise: null, mean_rise: null, valid: 2, thermocouples: 2 });
const history = {
  time: [-10, 0, 60, 120],
  series: [
    { key: 'pk', kind: 'pk' as const, min: [], max: [], mean: [20, 20, 349, 465] },
    { key: 'category:Tśr i Tmax:max', kind: 'category_max' as const, type_name: 'Tśr i Tmax', min: [], max: [], mean: [20, 20.5, 30.5, null] },
  ],
};

describe('report layout', () => {
  it('ends the test at a test_stopped observation, else at the newest frame', () => {
    expect(testEnd({ criteria: { elapsed: 3600 } as never, observations: [] })).toBe(3600);
    expect(testEnd({ criteria: { elapsed: 3600 } as never, observations: [{ time: 3000, kind: 'test_stopped', note: null }] })).toBe(3000);
  });

  it("gives the sampling interval from the history's frames over its range", () => {
    expect(samplingInterval({ from: 0, to: 3600, frames: 361 })).toBe(10);
    expect(samplingInterval({ from: 0, to: 0, frames: 1 })).toBeNull();
  });

  it('writes a temperature with its signed rise; a rise rounding to zero unsigned', () => {
    expect(withRise(200, 179.5)).toBe('200.0 °C (+179.5 K)');
    expect(withRise(20.2, -0.04)).toBe('20.2 °C (0.0 K)');
    expect(withRise(19, -1.25)).toBe('19.0 °C (−1.3 K)');
    expect(withRise(null, null)).toBe('---');
    expect(withRise(210, null)).toBe('210.0 °C');
  });

  it('names a thermocouple by its marker, "#id" without one', () => {
    expect(thermoName(new Map([[2, 'T2']]), 2)).toBe('T2');
    expect(thermoName(new Map(), 7)).toBe('#7');
    expect(thermoName(new Map(), null)).toBe('—');
  });

  it("judges a category's max line by the frame limit when it counts for the frame only, as the dashboard does", () => {
    expect(categoryLimits(category({ mean: true, max: true, frame: false }), limits)).toEqual({ max: limits.max, mean: limits.mean });
    expect(categoryLimits(category({ mean: false, max: false, frame: true }), limits)).toEqual({ max: limits.frame, mean: null });
    expect(categoryLimits(category({ mean: false, max: false, frame: false }), limits)).toEqual({ max: null, mean: null });
  });

  it('plots a series from ignition on, in minutes, shifted by T0 for a rise', () => {
    expect(seriesPoints(history, 'category:Tśr i Tmax:max', 20.5)).toEqual([
      [0, 0],
      [1, 10],
      [2, null],
    ]);
    expect(seriesPoints(history, 'nothing')).toEqual([]);
  });

  it('draws the charts as vectors with their labels as text', () => {
    const texts = reportTexts('pl');
    const rise = categoryChartSvg({ history, category: category({ mean: true, max: true, frame: false }), criteria: { t0: 20.5, basis: 'rise', limits }, endS: 120, marks: [{ time: 60, label: 'Notatka' }], texts, width: 500 }).svg;
    expect(rise).toMatch(/^<svg/);
    expect(rise).not.toContain('<image');
    expect(rise).toContain('granica 180.0 K');
    expect(rise).toContain('granica 140.0 K');
    expect(rise).toContain('Notatka');
    const absolute = categoryChartSvg({ history, category: category({ mean: true, max: true, frame: false }), criteria: { t0: 20.5, basis: 'absolute', limits }, endS: 120, marks: [], texts, width: 500 }).svg;
    expect(absolute).toContain('granica 200.5 °C');
    const furnace = furnaceChartSvg({ history, curve: 'iso834', endS: 120, marks: [], texts, curveName: 'Krzywa standardowa ISO 834', width: 500 }).svg;
    expect(furnace).toContain('Krzywa standardowa ISO 834');
    expect(furnace).toContain('d_e [%]');
  });
});
