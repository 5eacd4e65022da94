/*
 * ECharts, tree-shaken: only the line chart and the components the curves use are bundled. Import
 * charts through EChart.tsx, never from 'echarts' (the whole library) or 'echarts-for-react'
 * (its lib/ build crashes at run time here).
 */
import { LineChart } from 'echarts/charts';
import {
  AxisPointerComponent,
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  GridComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  LineChart,
  GridComponent,
  TitleComponent,
  TooltipComponent,
  AxisPointerComponent,
  LegendScrollComponent,
  MarkLineComponent,
  MarkAreaComponent,
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  CanvasRenderer,
]);

export { echarts };
export type EChartsInstance = echarts.ECharts;
