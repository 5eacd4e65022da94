/*
 * Test data for the chart and history logic (used by *.spec.ts only): frames, markers, and history
 * responses built from frames the way the server builds them (libs/api-server history.service.ts).
 */
import type { HistoryDto, HistorySeriesDto } from '@furnace/api-client';
import { type DaqPayload } from '@furnace/contracts';
import { categoryStats } from '../../lib/category-stats';
import type { CurveMarker } from './categories';

export function newMarker(overrides: Partial<CurveMarker> = {}): CurveMarker {
  return { thermo_id: 1, type_name: 'Tśr i Tmax', color_hex: '#E53935', name: 'T1', ...overrides };
}

export function newFrame(time: number, overrides: Partial<DaqPayload> = {}): DaqPayload {
  return { time, pk: 20 + time, radiance: 1, pressure: 10, thermocouples_out: [20, 20], ...overrides };
}

/** Frames every `step` seconds from `from` to `to`, values from `values(t)`. */
export function newFrames(
  from: number,
  to: number,
  step: number,
  values: (t: number) => Partial<DaqPayload> = () => ({}),
): DaqPayload[] {
  const frames: DaqPayload[] = [];
  for (let t = from; t <= to; t += step) frames.push(newFrame(t, values(t)));
  return frames;
}

type Getter = (frame: DaqPayload) => number | null;

/**
 * The history response for `frames` (in time order) as the server returns it: raw when there are at
 * most `points` frames, otherwise `points` equal buckets of time, each with the min/max/mean of its
 * frames and the time of its first frame. Category series from `markers` (categoryStats per frame).
 */
export function historyFromFrames(
  frames: readonly DaqPayload[],
  markers: readonly CurveMarker[] = [],
  points = 1000,
  researchId = 'r-1',
): HistoryDto {
  if (frames.length === 0)
    return {
      research_id: researchId,
      from: 0,
      to: 0,
      last_time: null,
      frames: 0,
      bucket_seconds: 0,
      thermo_ids: [],
      time: [],
      series: [],
      faults: [],
      ignition_at: null,
    };
  const from = (frames[0] as DaqPayload).time;
  const to = (frames[frames.length - 1] as DaqPayload).time;
  const width = (to - from) / points;
  const raw = frames.length <= points || width <= 0;
  const groups = new Map<number, DaqPayload[]>();
  for (const frame of frames) {
    const b = raw ? frame.time : Math.min(Math.floor((frame.time - from) / width), points - 1);
    let group = groups.get(b);
    if (!group) groups.set(b, (group = []));
    group.push(frame);
  }
  const buckets = [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, group]) => group);

  const getters: [Pick<HistorySeriesDto, 'key' | 'kind' | 'thermo_id' | 'type_name'>, Getter][] = [
    [{ key: 'radiance', kind: 'radiance' }, (f) => f.radiance ?? null],
    [{ key: 'pressure', kind: 'pressure' }, (f) => f.pressure ?? null],
    [{ key: 'pk', kind: 'pk' }, (f) => f.pk ?? null],
  ];
  const channels = Math.max(0, ...frames.map((f) => f.thermocouples_out?.length ?? 0));
  for (let id = 1; id <= channels; id++)
    getters.push([
      { key: `thermo:${id}`, kind: 'thermocouple', thermo_id: id },
      (f) => f.thermocouples_out?.[id - 1] ?? null,
    ]);
  const types = [...new Set(markers.map((m) => m.type_name))];
  for (const type of types) {
    const stat = (f: DaqPayload) => categoryStats(markers, f.thermocouples_out).find((s) => s.type_name === type);
    getters.push([{ key: `category:${type}:max`, kind: 'category_max', type_name: type }, (f) => stat(f)?.max ?? null]);
    getters.push([
      { key: `category:${type}:mean`, kind: 'category_mean', type_name: type },
      (f) => stat(f)?.mean ?? null,
    ]);
  }

  const series: HistorySeriesDto[] = getters.map(([head, get]) => {
    const min: (number | null)[] = [];
    const max: (number | null)[] = [];
    const mean: (number | null)[] = [];
    for (const group of buckets) {
      const values = group.map(get).filter((v): v is number => v !== null);
      min.push(values.length ? Math.min(...values) : null);
      max.push(values.length ? Math.max(...values) : null);
      mean.push(values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
    }
    return { ...head, min, max, mean };
  });
  return {
    research_id: researchId,
    from,
    to,
    last_time: to,
    frames: frames.length,
    bucket_seconds: raw ? 0 : width,
    thermo_ids: Array.from({ length: channels }, (_, i) => i + 1).filter((id) =>
      frames.some((f) => typeof f.thermocouples_out?.[id - 1] === 'number'),
    ),
    time: buckets.map((group) => (group[0] as DaqPayload).time),
    series,
    faults: [],
    ignition_at: null,
  };
}
