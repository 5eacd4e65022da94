import type { CriteriaSnapshot, DaqPayload, HeatingCurveId, ObservationKind, FrameSource } from '@furnace/contracts';
import { heatingCurve } from '@furnace/criteria';
import { Paper } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { historyQueryOptions, LIVE_HISTORY_POINTS } from '../stream/history-api';
import { useReadAuth } from '../stream/read-auth';
import { chartCategories, seriesKey, type CurveMarker } from '../charts/categories';
import { buildChartOption, chartLayout } from '../charts/chart-option';
import { liveCurvesSpec } from '../charts/curve-specs';
import { EChart } from '../charts/EChart';
import { useChartInstance } from '../charts/use-chart-instance';
import { LiveSeriesStore } from '../charts/live-series';
import { iso834Along, type Point } from '../charts/points';
import { pushSeries } from '../charts/push';
import { useCurveLabels } from '../charts/use-curve-labels';
import { useCriteriaChart } from '../criteria/use-criteria-chart';

/** What the curves need of a research (a ResearchDto fits). */
interface LiveCurvesResearch {
  readonly id: string;
  readonly start_at: string;
  readonly end_at: string;
  readonly is_radiance: boolean;
  readonly is_furnance: boolean;
  readonly is_pressure: boolean;
  /** The profile's heating curve, drawn against the furnace (ISO 834 when absent). */
  readonly heating_curve?: HeatingCurveId;
}

export interface LiveCurvesProps {
  research: LiveCurvesResearch;
  markers: readonly CurveMarker[];
  frames: FrameSource;
  /** Marks on the curves (a viewer gets only those visible to clients). */
  observations?: readonly { time: number; kind: ObservationKind; note: string | null }[];
  exclusions?: readonly { thermo_id: number; from_time: number }[];
  /** The live criteria: the profile's limits become the critical lines; failures are marked. */
  criteria?: CriteriaSnapshot | null;
  /** The frames that came before the curves mounted, to go on from a history already read (the live view's). */
  earlyFrames?: EarlyFrames;
}

/**
 * Every frame since `since` (ms since the epoch), handed over once to curves mounted after the stream
 * opened; null when some are missing.
 */
export type EarlyFrames = () => { since: number; frames: readonly DaqPayload[] } | null;

const NONE: readonly never[] = [];
const NO_PRESSURE = { pressure_target_pa: null, pressure_tolerance_pa: null };

/**
 * A history in the cache when the curves mount (the live view's bootstrap read it just before the
 * stream opened) is drawn, with the early frames, when it was read at most this long before they
 * began to be kept; otherwise it is read again.
 */
const SEEDED_HISTORY_MS = 10_000;
/** Live frames are drawn in batches, at most this often (ms). */
const FLUSH_MS = 250;
/** Frames kept to replay after the history arrives (those after its last_time). */
const RECENT_FRAMES = 1000;

/**
 * The live curves of a research: the mean furnace temperature against ISO 834 (when the research
 * measures it) and per thermocouple category max and mean against the critical values. The whole
 * test so far comes from the history endpoint (min/max buckets), then the live frames after its
 * last_time are placed by their time: one partial setOption per batch, the option itself is never rebuilt.
 * Default export too, for React.lazy: ECharts loads only when a chart is shown.
 */
export function LiveCurves({
  research,
  markers,
  frames,
  observations = NONE,
  exclusions = NONE,
  criteria = null,
  earlyFrames,
}: LiveCurvesProps) {
  const auth = useReadAuth();
  const queryClient = useQueryClient();
  const { t } = useTranslation('history');
  const { labels, texts } = useCurveLabels(undefined, research.heating_curve);
  // The same markers in a new array (a refetch, a parent's render) change nothing: keyed on their content.
  const signature = markersSignature(markers);
  const stableMarkers = useMemo(() => markers, [signature]);
  const plainCategories = useMemo(() => chartCategories(stableMarkers), [stableMarkers]);
  const names = useMemo(() => new Map(stableMarkers.map((m) => [m.thermo_id, m.name])), [stableMarkers]);
  const drawn = useCriteriaChart({
    categories: plainCategories,
    snapshot: criteria,
    observations,
    exclusions,
    profile: NO_PRESSURE,
    names,
  });
  const withIso = research.is_furnance;
  const spec = useMemo(
    () => liveCurvesSpec({ furnace: withIso, categories: drawn.categories, labels, overlay: drawn.overlay }),
    [withIso, drawn, labels],
  );
  const categories = plainCategories;
  const option = useMemo(() => (spec ? buildChartOption(spec, texts) : null), [spec, texts]);
  // Not from `spec`: a language switch must not replace the store (and its live tail).
  const keys = useMemo(() => liveSeriesKeys(withIso, categories), [withIso, categories]);

  const historyOptions = historyQueryOptions(auth, research.id, { points: LIVE_HISTORY_POINTS });

  // Subscribed before the history is requested (`enabled` below): no frame can fall between them.
  const [subscribed, setSubscribed] = useState(false);
  const recent = useRef<DaqPayload[]>([]);
  const pending = useRef<DaqPayload[]>([]);
  const flush = useRef<() => void>(() => undefined);
  const judged = useRef(false);
  useEffect(() => {
    // Once per mount: a history already there goes on with the frames since it was read, or is read again.
    if (!judged.current) {
      judged.current = true;
      const early = earlyFrames?.() ?? null;
      const cached = queryClient.getQueryState(historyOptions.queryKey);
      if (cached?.data !== undefined) {
        if (early && early.since - cached.dataUpdatedAt <= SEEDED_HISTORY_MS) recent.current.push(...early.frames);
        else void queryClient.resetQueries({ queryKey: historyOptions.queryKey, exact: true });
      }
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = frames.subscribeAll((frame) => {
      recent.current.push(frame);
      if (recent.current.length > RECENT_FRAMES) recent.current.splice(0, recent.current.length - RECENT_FRAMES);
      pending.current.push(frame);
      timer ??= setTimeout(() => {
        timer = null;
        flush.current();
      }, FLUSH_MS);
    });
    setSubscribed(true);
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [frames]);

  // Read once per mount (gcTime 0: a remount reads again rather than resume from an old last_time),
  // unless the live view's bootstrap has just read it (above).
  const history = useQuery({
    ...historyOptions,
    enabled: subscribed,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  const { instance, onReady, onInstance } = useChartInstance();
  const store = useMemo(() => new LiveSeriesStore(keys, stableMarkers), [keys, stableMarkers]);
  // Other markers (an UPDATE of the configs): the new store starts from a fresh history, so that
  // frames older than `recent` are not lost.
  const firstStore = useRef(store);
  const { refetch } = history;
  useEffect(() => {
    if (store !== firstStore.current) void refetch();
  }, [store, refetch]);
  // After a reconnect (another instance, a restart) frames of the interruption were never received:
  // the history has them; it replaces the series and the frames since are placed again.
  useEffect(() => frames.subscribeGap(() => void refetch()), [frames, refetch]);

  const curveId = research.heating_curve ?? 'iso834';
  const isoEntry = useCallback(
    (): [string, Point[]][] =>
      withIso ? [[seriesKey.iso834, iso834Along(store.points(seriesKey.pk), (t) => heatingCurve(curveId, t))]] : [],
    [withIso, store, curveId],
  );
  const pushAll = useCallback(() => {
    if (!store.isLoaded) return;
    pushSeries(instance.current, [
      ...keys.map((key): [string, readonly Point[]] => [key, store.points(key)]),
      ...isoEntry(),
    ]);
  }, [store, keys, isoEntry]);

  useEffect(() => {
    flush.current = () => {
      const batch = pending.current;
      pending.current = [];
      // Before the history arrives the frames wait in `recent`, replayed after its last_time.
      if (!store.isLoaded) return;
      const changed = store.append(batch);
      if (changed.length === 0) return;
      pushSeries(instance.current, [
        ...changed.map((key): [string, readonly Point[]] => [key, store.points(key)]),
        ...isoEntry(),
      ]);
    };
  }, [store, isoEntry]);

  const historyError = history.isError;
  useEffect(() => {
    // Not before the history in the cache was judged (the subscription's effect).
    if (!subscribed) return;
    if (!history.data && !historyError) return;
    store.loadHistory(history.data ?? null);
    store.append(recent.current);
    pending.current = [];
    pushAll();
  }, [subscribed, history.data, historyError, store, pushAll]);

  // A new option (language, markers) is merged by the chart: give it its data again.
  useEffect(() => pushAll(), [option, pushAll]);

  useEffect(() => {
    onReady.current = pushAll;
  }, [onReady, pushAll]);

  if (!spec || !option) return null;
  return (
    <Paper withBorder radius="lg" p="xs" data-testid="live-curves" data-loaded={history.isSuccess ? 'true' : 'false'}>
      <EChart option={option} height={chartLayout(spec).height} onInstance={onInstance} label={t('chart.liveLabel')} />
    </Paper>
  );
}

export default LiveCurves;

/** The series a live store keeps: pk for a research measuring it, each category's max and mean. */
function liveSeriesKeys(furnace: boolean, categories: readonly { typeName: string }[]): string[] {
  const keys: string[] = furnace ? [seriesKey.pk] : [];
  for (const category of categories)
    keys.push(seriesKey.categoryMax(category.typeName), seriesKey.categoryMean(category.typeName));
  return keys;
}

function markersSignature(markers: readonly CurveMarker[]): string {
  return markers.map((m) => `${m.thermo_id}\u0001${m.type_name}\u0001${m.color_hex}\u0001${m.name}`).join('\u0002');
}
