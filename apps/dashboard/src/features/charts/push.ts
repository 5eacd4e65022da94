import type { Point } from './points';

/** What pushSeries needs of an ECharts instance. */
export interface SeriesSink {
  setOption(option: { series: { id: string; data: Point[] }[] }, opts: { lazyUpdate: boolean; silent: boolean }): void;
  isDisposed(): boolean;
}

/**
 * Replaces the data of the given series only (by id): one partial setOption, drawn on the next
 * frame (lazyUpdate). The arrays are copied: ECharts keeps a reference to what it is given, and
 * the callers keep appending to theirs.
 */
export function pushSeries(sink: SeriesSink | null, entries: Iterable<readonly [string, readonly Point[]]>): number {
  if (!sink || sink.isDisposed()) return 0;
  const series = [...entries].map(([id, data]) => ({ id, data: data.slice() }));
  if (series.length > 0) sink.setOption({ series }, { lazyUpdate: true, silent: true });
  return series.length;
}
