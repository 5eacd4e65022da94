import type { FrameSource } from '@furnace/contracts';
import { type RefObject, useCallback, useEffect, useMemo } from 'react';
import type { ChartOption } from '../charts/chart-option';
import type { EChartsInstance } from '../charts/echarts';
import { secondsToMs } from '../charts/points';

const CURSOR_COLOR = '#e8590c';
const cursorId = (grid: number) => `replay-cursor:${grid}`;

function gridCount(option: ChartOption): number {
  return Array.isArray(option.grid) ? option.grid.length : option.grid ? 1 : 0;
}

/**
 * `option` with a vertical line per grid at the replayed moment: an empty series of its own on each
 * grid (no legend entry, no tooltip) whose markLine the cursor moves, so moving it touches nothing else.
 */
export function withCursorSeries(option: ChartOption): ChartOption {
  const axes = Array.isArray(option.yAxis) ? option.yAxis : option.yAxis ? [option.yAxis] : [];
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  const cursors = Array.from({ length: gridCount(option) }, (_, grid) => ({
    type: 'line' as const,
    id: cursorId(grid),
    xAxisIndex: grid,
    yAxisIndex: Math.max(
      0,
      axes.findIndex((axis) => (axis as { gridIndex?: number }).gridIndex === grid),
    ),
    data: [],
    silent: true,
    tooltip: { show: false },
    markLine: {
      silent: true,
      symbol: 'none',
      animation: false,
      lineStyle: { color: CURSOR_COLOR, width: 2, type: 'solid' as const },
      label: { show: false },
      data: [],
    },
  }));
  return { ...option, series: [...series, ...cursors] } as ChartOption;
}

/**
 * Moves the cursor lines of a chart built with withCursorSeries to the time of `cursor`'s newest
 * frame, at every frame (one partial setOption, drawn on the next display frame). Returns the
 * function that draws it again (into a new instance, after a new option).
 */
export function useChartCursor(
  instance: RefObject<EChartsInstance | null>,
  option: ChartOption | null,
  cursor: FrameSource | undefined,
): () => void {
  const grids = useMemo(() => (option ? gridCount(option) : 0), [option]);
  const draw = useCallback(() => {
    const chart = instance.current;
    const frame = cursor?.latest();
    if (!chart || chart.isDisposed() || !cursor) return;
    const data = frame ? [{ xAxis: secondsToMs(frame.time) }] : [];
    chart.setOption(
      { series: Array.from({ length: grids }, (_, grid) => ({ id: cursorId(grid), markLine: { data } })) },
      { lazyUpdate: true, silent: true },
    );
  }, [instance, cursor, grids]);
  useEffect(() => {
    draw();
    return cursor?.subscribe(draw);
  }, [cursor, draw, option]);
  return draw;
}
