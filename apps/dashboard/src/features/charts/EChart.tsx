import { useComputedColorScheme } from '@mantine/core';
import EChartsReactCore from 'echarts-for-react/esm/core';
import type { CSSProperties } from 'react';
import type { ChartOption } from './chart-option';
import { echarts, type EChartsInstance } from './echarts';

/** ECharts merges these by id and drops what the new option lacks; data pushed by id survives. */
const REPLACE_MERGE = ['series', 'grid', 'xAxis', 'yAxis', 'title'];

export interface EChartProps {
  option: ChartOption;
  height: number;
  /** Called with each new instance (a theme switch makes a new one): the caller pushes data into it. */
  onInstance: (instance: EChartsInstance) => void;
  /** Must be a stable object: a new one rebinds every handler. */
  onEvents?: Record<string, (params: unknown, instance: EChartsInstance) => void>;
  label: string;
  testId?: string;
}

/**
 * A chart on the tree-shaken ECharts core (echarts-for-react/esm/core). The option must be
 * memoised: a new option object is merged into the chart, so it changes only with the structure
 * (grids, series, language, theme), never per data update.
 */
export function EChart({ option, height, onInstance, onEvents, label, testId }: EChartProps) {
  const scheme = useComputedColorScheme('light');
  const style: CSSProperties = { height, width: '100%' };
  return (
    <div role="img" aria-label={label} data-testid={testId}>
      <EChartsReactCore
        echarts={echarts}
        option={option}
        theme={scheme === 'dark' ? 'dark' : undefined}
        replaceMerge={REPLACE_MERGE}
        lazyUpdate
        style={style}
        onChartReady={onInstance}
        onEvents={onEvents}
      />
    </div>
  );
}
