import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a chart: drawn against the left or the right axis. */
export interface ChartSeries {
  label: string;
  color: string;
  axis: 'left' | 'right';
  dash?: number[];
  /** Draw points (for sparse series such as the held-out evaluation). */
  points?: boolean;
}

export interface ChartAxis {
  label: string;
  /** A fixed range (e.g. [0, 1] for a success rate); automatic when absent. */
  range?: [number, number];
}

interface LiveChartProps {
  title: string;
  xLabel: string;
  /** Ticks on whole numbers only (epochs, iterations). */
  xIntegers?: boolean;
  left: ChartAxis;
  right?: ChartAxis;
  series: ChartSeries[];
  /** uPlot's aligned data: x values, then one array per series (null where a series has no value). */
  data: uPlot.AlignedData;
  height?: number;
}

const DARK = '(prefers-color-scheme: dark)';

/** A number in a few significant digits: tiny values (a KL of 1e-5) stay readable, never "0". */
export function formatNumber(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs === 0) return '0';
  if (abs >= 10 ** digits) return Math.round(value).toLocaleString('en-US');
  if (abs >= 1e-3) return String(Number(value.toPrecision(digits)));
  return value.toExponential(Math.max(0, digits - 2));
}

function lastValue(column: ArrayLike<number | null | undefined> | undefined): number | null {
  if (!column) return null;
  for (let i = column.length - 1; i >= 0; i--) {
    const v = column[i];
    if (v != null) return v;
  }
  return null;
}

/** Values a series has (not null) between two indices, inclusive. */
export function definedPoints(column: ArrayLike<number | null | undefined> | undefined, from = 0, to = (column?.length ?? 0) - 1): number {
  if (!column) return 0;
  let n = 0;
  for (let i = Math.max(0, from); i <= Math.min(to, column.length - 1); i++) if (column[i] != null) n++;
  return n;
}

/** Legend values: under the cursor while hovering, otherwise each series' latest value. */
function legendValue(format: (v: number) => string): uPlot.Series.Value {
  return (u, raw, seriesIdx, idx) => {
    const v = idx == null ? lastValue(u.data[seriesIdx]) : raw;
    return v == null ? '–' : format(v);
  };
}

/** The page's theme colours, read from the CSS variables so the chart follows light and dark. */
function themeColors(element: HTMLElement): { muted: string; grid: string } {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { muted: read('--muted', '#5f6368'), grid: read('--border', '#d9d9d6') };
}

function buildOptions(props: LiveChartProps, width: number, element: HTMLElement): uPlot.Options {
  const { muted, grid } = themeColors(element);
  const font = '12px system-ui, sans-serif';
  const axisStyle: uPlot.Axis = {
    stroke: muted, labelFont: font, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 },
    values: (_u, splits) => splits.map((v) => formatNumber(v)),
  };
  const scales: uPlot.Scales = { x: { time: false }, left: props.left.range ? { range: props.left.range } : {} };
  const axes: uPlot.Axis[] = [
    { ...axisStyle, label: props.xLabel, ...(props.xIntegers ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] } : {}) },
    { ...axisStyle, scale: 'left', label: props.left.label, size: 58 },
  ];
  if (props.right) {
    scales.right = props.right.range ? { range: props.right.range } : {};
    axes.push({ ...axisStyle, scale: 'right', side: 1, label: props.right.label, size: 58, grid: { show: false } });
  }
  return {
    width,
    height: props.height ?? 220,
    scales,
    axes,
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: props.xLabel, value: legendValue((v) => Math.round(v).toLocaleString('en-US')) },
      ...props.series.map((s): uPlot.Series => ({
        label: s.label,
        scale: s.axis,
        stroke: s.color,
        width: 2,
        spanGaps: true,
        ...(s.dash ? { dash: s.dash } : {}),
        // A line needs two points: until a series has them, its one point is drawn as a dot, so the
        // chart is not blank after the first iteration.
        points: { show: (u, i, i0, i1) => (s.points ?? false) || definedPoints(u.data[i], i0, i1) < 2, size: 6, stroke: s.color, fill: s.color },
        value: legendValue((v) => formatNumber(v)),
      })),
    ],
  };
}

/** What the chart's options are made of, beside the data: a change here means a new chart. */
function chartKey(props: LiveChartProps): string {
  return JSON.stringify([props.xLabel, props.xIntegers ?? false, props.left, props.right ?? null, props.series, props.height ?? 220]);
}

/**
 * A live uPlot chart. Created on mount (and again when the colour scheme flips, or when its axes or
 * series change: a dream run after a real one counts synthetic steps), then kept current with
 * `setData` as new points arrive and resized with its container.
 */
export function LiveChart(props: LiveChartProps) {
  return <Chart key={chartKey(props)} {...props} />;
}

function Chart(props: LiveChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const create = () => {
      chart.current?.destroy();
      const width = Math.max(200, element.clientWidth);
      chart.current = new uPlot(buildOptions(latest.current, width, element), latest.current.data, element);
    };
    create();
    const resize = new ResizeObserver(() => {
      const width = Math.max(200, element.clientWidth);
      if (chart.current && chart.current.width !== width) chart.current.setSize({ width, height: latest.current.height ?? 220 });
    });
    resize.observe(element);
    const scheme = window.matchMedia(DARK);
    scheme.addEventListener('change', create);
    return () => {
      resize.disconnect();
      scheme.removeEventListener('change', create);
      chart.current?.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setData(props.data);
    chart.current?.setLegend({}); // refresh the legend's latest values
  }, [props.data]);

  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div ref={container} class="chart-canvas" />
    </figure>
  );
}
