import type { HistoryDto } from '@furnace/api-client';
import { Button, Group, Loader, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import type { ChartCategory } from '../charts/categories';
import { seriesKey } from '../charts/categories';
import { buildChartOption, chartLayout, elapsedLabel } from '../charts/chart-option';
import { historyChartSpec, type ChartThermocouple } from '../charts/curve-specs';
import { EChart } from '../charts/EChart';
import { useChartInstance } from '../charts/use-chart-instance';
import type { EChartsInstance } from '../charts/echarts';
import { hasValues, historyPoints, historySeriesByKey, iso834Along, secondsToMs, type Point } from '../charts/points';
import { pushSeries } from '../charts/push';
import { useCurveLabels } from '../charts/use-curve-labels';
import { historyQueryOptions, STAFF } from '../stream/history-api';
import type { ObservationDto, ThermoExclusionDto } from '@furnace/api-client';
import type { CriteriaSnapshot, HeatingCurveId, FrameSource } from '@furnace/contracts';
import { heatingCurve } from '@furnace/criteria';
import { deviationPoints, deviationSeries } from '../criteria/chart-criteria';
import { useCriteriaChart } from '../criteria/use-criteria-chart';
import { mergeRange, zoomRange, type TimeRange } from './zoom';
import { useChartCursor, withCursorSeries } from '../replay/chart-cursor';

/** Buckets of a zoomed range: ≤ 1 600 chart points, the rest of the 2 000 for the test around it. */
const DETAIL_POINTS = 800;
const ZOOM_DEBOUNCE_MS = 300;
const NO_POINTS: readonly Point[] = [];

interface ZoomEvent {
  start?: number;
  end?: number;
  batch?: { start?: number; end?: number }[];
}

function zoomPercents(params: unknown): { start: number; end: number } | null {
  const event = params as ZoomEvent;
  const source = event.batch?.[0] ?? event;
  return typeof source.start === 'number' && typeof source.end === 'number'
    ? { start: source.start, end: source.end }
    : null;
}

interface HistoryChartProps {
  researchId: string;
  startAt: string;
  flags: { furnace: boolean; radiance: boolean; pressure: boolean };
  overview: HistoryDto;
  categories: readonly ChartCategory[];
  thermocouples: readonly ChartThermocouple[];
  hidden: ReadonlySet<number>;
  /** The test profile: heating curve, pressure target and tolerance. */
  profile: { heating_curve: HeatingCurveId; pressure_target_pa: number | null; pressure_tolerance_pa: number | null };
  /** The API's criteria over the stored frames: limits and failures drawn. */
  criteria: CriteriaSnapshot | null;
  observations: readonly ObservationDto[];
  exclusions: readonly ThermoExclusionDto[];
  names: ReadonlyMap<number, string>;
  /** The replayed moment (its newest frame): a vertical line at its time on every grid. */
  cursor?: FrameSource;
}

/**
 * The zoomable chart of every series of a research. The whole test comes from `overview`; a zoom
 * (wheel, pinch, slider) reads its range again from the server with from/to, so that detail
 * appears, and draws it inside the test around it.
 */
function HistoryChart({
  researchId,
  startAt,
  flags,
  overview,
  categories: plainCategories,
  thermocouples,
  hidden,
  profile,
  criteria,
  observations,
  exclusions,
  names,
  cursor,
}: HistoryChartProps) {
  const { t } = useTranslation('history');
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const start = Date.parse(startAt);
  const header = useCallback(
    (ms: number) => `${elapsedLabel(ms)} · ${formatDateTime(new Date(start + ms).toISOString())}`,
    [start],
  );
  const { labels, texts } = useCurveLabels(header, profile.heating_curve);

  const { t: tc } = useTranslation('criteria');
  const byKey = useMemo(() => historySeriesByKey(overview), [overview]);
  const { categories, overlay } = useCriteriaChart({
    categories: plainCategories,
    snapshot: criteria,
    observations,
    exclusions,
    profile,
    until: overview.to,
    names,
  });
  const furnaceDrawn = flags.furnace || hasValues(byKey.get(seriesKey.pk));
  const curve = profile.heating_curve;
  const fullOverlay = useMemo(
    () =>
      furnaceDrawn
        ? {
            ...overlay,
            deviation: {
              title: tc('history.deviationGrid'),
              series: deviationSeries({
                deviation: tc('history.deviation'),
                upper: tc('history.toleranceUpper'),
                lower: tc('history.toleranceLower'),
              }),
            },
          }
        : overlay,
    [furnaceDrawn, overlay, tc],
  );
  const spec = useMemo(
    () =>
      historyChartSpec({
        furnace: furnaceDrawn,
        radiance: flags.radiance || hasValues(byKey.get(seriesKey.radiance)),
        pressure: flags.pressure || hasValues(byKey.get(seriesKey.pressure)),
        categories,
        thermocouples,
        labels,
        gridHeight: narrow ? 170 : 220,
        overlay: fullOverlay,
      }),
    [furnaceDrawn, flags.radiance, flags.pressure, byKey, categories, thermocouples, labels, narrow, fullOverlay],
  );
  const option = useMemo(() => (spec ? withCursorSeries(buildChartOption(spec, texts)) : null), [spec, texts]);

  // The whole test, per series id.
  const overviewPoints = useMemo(() => {
    const points = new Map<string, Point[]>();
    for (const series of spec?.series ?? []) {
      const dto = byKey.get(series.id);
      points.set(series.id, dto ? historyPoints(overview, dto) : []);
    }
    if (points.has(seriesKey.iso834))
      points.set(
        seriesKey.iso834,
        iso834Along(points.get(seriesKey.pk) ?? [], (t) => heatingCurve(curve, t)),
      );
    // d_e and its envelope: computed here from the furnace temperature of the whole test.
    for (const [id, values] of deviationPoints(overview, curve)) if (points.has(id)) points.set(id, values);
    return points;
  }, [spec, byKey, overview, curve]);

  // Zoom → range (debounced) → detail read from the server.
  const [range, setRange] = useState<TimeRange | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const extent = useRef<TimeRange>({ from: overview.from, to: overview.to });
  useEffect(() => {
    extent.current = { from: overview.from, to: overview.to };
  }, [overview.from, overview.to]);
  const onEvents = useMemo(
    () => ({
      datazoom: (params: unknown) => {
        const percents = zoomPercents(params);
        if (!percents) return;
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          const next = zoomRange(extent.current, percents.start, percents.end);
          setRange((current) => (current?.from === next?.from && current?.to === next?.to ? current : next));
        }, ZOOM_DEBOUNCE_MS);
      },
    }),
    [],
  );
  const ticked = useMemo(
    () => thermocouples.map((th) => th.thermoId).filter((id) => !hidden.has(id)),
    [thermocouples, hidden],
  );
  const detail = useQuery({
    ...historyQueryOptions(STAFF, researchId, {
      points: DETAIL_POINTS,
      from: range?.from,
      to: range?.to,
      thermoIds: ticked,
    }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const detailData = range ? detail.data : undefined;

  // Zoomed: each series is the detail inside the test around it (new arrays only when the detail changes)…
  const zoomedPoints = useMemo(() => {
    if (!detailData) return overviewPoints;
    const detailByKey = historySeriesByKey(detailData);
    const data = new Map<string, readonly Point[]>();
    for (const [id, points] of overviewPoints) {
      const dto = detailByKey.get(id);
      if (id === seriesKey.iso834 || !dto) data.set(id, points);
      else
        data.set(
          id,
          mergeRange(points, historyPoints(detailData, dto), secondsToMs(detailData.from), secondsToMs(detailData.to)),
        );
    }
    if (data.has(seriesKey.iso834))
      data.set(
        seriesKey.iso834,
        iso834Along(data.get(seriesKey.pk) ?? [], (t) => heatingCurve(curve, t)),
      );
    return data;
  }, [overviewPoints, detailData, curve]);
  // …and a hidden thermocouple shows nothing: a toggle pushes only its own series.
  const shown = useMemo(() => {
    const data = new Map<string, readonly Point[]>();
    for (const [id, points] of zoomedPoints) {
      data.set(id, id.startsWith('thermo:') && hidden.has(Number(id.slice('thermo:'.length))) ? NO_POINTS : points);
    }
    return data;
  }, [zoomedPoints, hidden]);

  // Push only the series whose points changed; all of them into a new instance or after a new option.
  const { instance, onReady, onInstance } = useChartInstance();
  const pushed = useRef(new Map<string, readonly Point[]>());
  const pushedInto = useRef<{ chart: EChartsInstance | null; option: unknown }>({ chart: null, option: null });
  const wrapper = useRef<HTMLDivElement | null>(null);
  const push = useCallback(() => {
    const chart = instance.current;
    const fresh = pushedInto.current.chart !== chart || pushedInto.current.option !== option;
    if (fresh) pushed.current.clear();
    const changed = [...shown].filter(([id, points]) => pushed.current.get(id) !== points);
    if (pushSeries(chart, changed) === 0) return;
    pushedInto.current = { chart, option };
    for (const [id, points] of changed) pushed.current.set(id, points);
    // For the end-to-end test: the most points any series holds (never above 2 000).
    if (wrapper.current)
      wrapper.current.dataset.maxPoints = String(Math.max(0, ...[...shown.values()].map((p) => p.length)));
  }, [shown, option]);
  useEffect(() => push(), [push]);
  const drawCursor = useChartCursor(instance, option, cursor);
  useEffect(() => {
    onReady.current = () => {
      push();
      drawCursor();
    };
  }, [onReady, push, drawCursor]);
  const resetZoom = () => instance.current?.dispatchAction({ type: 'dataZoom', start: 0, end: 100 });

  if (!spec || !option) return null;
  return (
    <div ref={wrapper} data-testid="history-chart" data-range={range ? `${range.from}-${range.to}` : 'all'}>
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
        <Text size="xs" c="dimmed">
          {t('chart.zoomHint')}
        </Text>
        <Group gap="xs" wrap="nowrap">
          {range && detail.isFetching ? (
            <Group gap={6} wrap="nowrap" data-testid="detail-loading">
              <Loader size="xs" />
              <Text size="xs" c="dimmed" visibleFrom="sm">
                {t('chart.loadingDetail')}
              </Text>
            </Group>
          ) : null}
          {range ? (
            <Button size="compact-xs" variant="light" onClick={resetZoom}>
              {t('chart.resetZoom')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <EChart
        option={option}
        height={chartLayout(spec).height}
        onInstance={onInstance}
        onEvents={onEvents}
        label={t('chart.label')}
      />
    </div>
  );
}

export default HistoryChart;
