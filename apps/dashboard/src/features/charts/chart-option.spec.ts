import { buildChartOption, chartLayout, THRESHOLD_COLORS, tooltipContent, type ChartOption } from './chart-option';
import { chartCategories } from './categories';
import { historyChartSpec, liveCurvesSpec, type CurveLabels } from './curve-specs';
import { newMarker } from './test-factories';

const labels: CurveLabels = {
  furnace: 'Piec',
  pk: 'pk',
  iso834: 'ISO 834',
  categories: 'Kategorie',
  thermocouples: 'Termopary',
  scalars: 'Promieniowanie i ciśnienie',
  radiance: 'Promieniowanie',
  pressure: 'Ciśnienie',
  categoryMax: (type) => `${type} max`,
  categoryMean: (type) => `${type} śr`,
  criticalMax: (value) => `max ${value}`,
  criticalMean: (value) => `śr ${value}`,
};
const texts = { more: (n: number) => `+${n}`, header: (ms: number) => `t=${ms}` };
const categories = chartCategories([
  newMarker({ thermo_id: 1, type_name: 'Tśr i Tmax', color_hex: '#E53935' }),
  newMarker({ thermo_id: 2, type_name: 'Tmax ościeżnicy', color_hex: '#1E88E5' }),
  newMarker({ thermo_id: 3, type_name: 'T', color_hex: '#43A047' }),
]);

type Series = {
  id: string;
  name: string;
  xAxisIndex: number;
  yAxisIndex: number;
  data?: unknown;
  markLine?: { data: { yAxis: number; lineStyle: { color: string } }[] };
};
const seriesOf = (option: ChartOption) => option.series as Series[];
const markLines = (option: ChartOption, id: string) =>
  seriesOf(option)
    .find((s) => s.id === id)
    ?.markLine?.data.map((d) => [d.yAxis, d.lineStyle.color]) ?? [];

describe('the live curves option', () => {
  it("spans at least a minute on the time axis, so a test's first reading does not stretch it over a day", () => {
    const option = buildChartOption(liveCurvesSpec({ furnace: true, categories, labels })!, texts);
    type Bound = (extent: { min: number; max: number }) => number;
    for (const axis of option.xAxis as { min: Bound; max: Bound }[]) {
      expect([axis.min({ min: 600_000, max: 600_000 }), axis.max({ min: 600_000, max: 600_000 })]).toEqual([
        600_000, 660_000,
      ]);
      expect([axis.min({ min: 0, max: 3_600_000 }), axis.max({ min: 0, max: 3_600_000 })]).toEqual([0, 3_600_000]);
    }
  });

  it('draws the furnace mean against ISO 834 and per category max and mean with their critical lines', () => {
    const spec = liveCurvesSpec({ furnace: true, categories, labels })!;
    const option = buildChartOption(spec, texts);
    expect((option.grid as unknown[]).length).toBe(2);
    expect(seriesOf(option).map((s) => [s.id, s.xAxisIndex])).toEqual([
      ['pk', 0],
      ['iso834', 0],
      ['category:Tśr i Tmax:max', 1],
      ['category:Tśr i Tmax:mean', 1],
      ['category:Tmax ościeżnicy:max', 1],
      ['category:Tmax ościeżnicy:mean', 1],
      ['category:T:max', 1],
      ['category:T:mean', 1],
    ]);
    expect(markLines(option, 'category:Tśr i Tmax:max')).toEqual([[180, THRESHOLD_COLORS.max]]);
    expect(markLines(option, 'category:Tśr i Tmax:mean')).toEqual([[140, THRESHOLD_COLORS.mean]]);
    expect(markLines(option, 'category:Tmax ościeżnicy:max')).toEqual([[360, THRESHOLD_COLORS.max]]);
    expect(markLines(option, 'category:Tmax ościeżnicy:mean')).toEqual([]);
    expect(markLines(option, 'category:T:max')).toEqual([]);
    // One label per critical line: a second category with 180 °C draws its line without another label.
    const withTmax = buildChartOption(
      liveCurvesSpec({
        furnace: false,
        categories: chartCategories([newMarker(), newMarker({ thermo_id: 9, type_name: 'Tmax' })]),
        labels,
      })!,
      texts,
    );
    const labelShown = (id: string) =>
      (seriesOf(withTmax).find((s) => s.id === id)?.markLine?.data[0] as unknown as { label: { show: boolean } }).label
        .show;
    expect([labelShown('category:Tśr i Tmax:max'), labelShown('category:Tmax:max')]).toEqual([true, false]);
    // The categories' axis reaches the highest critical line even while readings are far below.
    expect((option.yAxis as { dataMax?: number }[])[1]?.dataMax).toBe(360);
    expect(option.dataZoom).toBeUndefined();
    // The option carries no data: points are pushed by series id.
    expect(seriesOf(option).every((s) => s.data === undefined)).toBe(true);
  });

  it('has no furnace chart for a research that does not measure it, and no chart without anything to draw', () => {
    const spec = liveCurvesSpec({ furnace: false, categories, labels })!;
    expect(spec.grids.map((g) => g.id)).toEqual(['categories']);
    expect(spec.series.some((s) => s.id === 'pk' || s.id === 'iso834')).toBe(false);
    expect(liveCurvesSpec({ furnace: false, categories: [], labels })).toBeNull();
  });
});

describe('the history option', () => {
  const spec = historyChartSpec({
    furnace: true,
    radiance: true,
    pressure: true,
    categories,
    thermocouples: [
      { thermoId: 1, name: 'T1', color: '#E53935' },
      { thermoId: 2, name: '<b>T2</b>' },
    ],
    labels,
  })!;
  const option = buildChartOption(spec, texts);

  it('stacks furnace, categories, thermocouples and radiance/pressure (two axes), one zoom over all', () => {
    expect(spec.grids.map((g) => g.id)).toEqual(['furnace', 'categories', 'thermocouples', 'scalars']);
    expect((option.xAxis as unknown[]).length).toBe(4);
    expect((option.yAxis as unknown[]).length).toBe(5);
    const radiance = seriesOf(option).find((s) => s.id === 'radiance')!;
    const pressure = seriesOf(option).find((s) => s.id === 'pressure')!;
    expect([radiance.xAxisIndex, radiance.yAxisIndex, pressure.yAxisIndex]).toEqual([3, 3, 4]);
    const zoom = option.dataZoom as { type: string; xAxisIndex: number[] }[];
    expect(zoom.map((z) => [z.type, z.xAxisIndex])).toEqual([
      ['inside', [0, 1, 2, 3]],
      ['slider', [0, 1, 2, 3]],
    ]);
  });

  it('leaves the thermocouples out of the legend (the page toggles them)', () => {
    const legend = option.legend as { data: string[] };
    expect(legend.data).toContain('pk');
    expect(legend.data).toContain('Tśr i Tmax max');
    expect(legend.data).not.toContain('T1');
  });

  it('sizes the chart from its grids', () => {
    const layout = chartLayout(spec);
    expect(layout.tops).toHaveLength(4);
    expect(layout.height).toBeGreaterThan(4 * 220);
    expect((option.grid as { top: number }[]).map((g) => g.top)).toEqual(layout.tops);
  });
});

describe('tooltipContent', () => {
  it('puts names from config files in as text, lists at most 14 series, and uses no style attribute', () => {
    const params = Array.from({ length: 20 }, (_, i) => ({
      seriesId: `thermo:${i}`,
      seriesName: i === 0 ? '<img src=x onerror=alert(1)>' : `T${i}`,
      value: [60_000, i + 0.04],
      color: '#E53935',
    }));
    const el = tooltipContent(params, new Map([['thermo:0', '°C']]), texts);
    expect(el.querySelector('img')).toBeNull();
    const lines = [...el.children].map((c) => c.textContent);
    expect(lines[1]).toBe('<img src=x onerror=alert(1)>: 0.0 °C');
    expect(lines).toHaveLength(1 + 14 + 1);
    expect(lines.at(-1)).toContain('+6');
    expect(lines[0]).toBe('t=60000');
    // The marker's colour is set through CSSOM (a CSP refuses style attributes parsed from HTML).
    expect((el.querySelector('span') as HTMLElement).style.backgroundColor).toBe('rgb(229, 57, 53)');
  });
});
