import * as chartjs from 'chart.js';
import { cssVar } from '../components/ReportParts';

/**
 * The chart.js parts of the reports that draw bars with a line over them (the pareto, the cycles): chart.js
 * draws only what is registered.
 */
export function registerBarLineCharts(): void {
  chartjs.Chart.register(
    chartjs.BarController,
    chartjs.BarElement,
    chartjs.CategoryScale,
    chartjs.Legend,
    chartjs.LinearScale,
    chartjs.LineController,
    chartjs.LineElement,
    chartjs.PointElement,
    chartjs.Tooltip,
  );
}

/** The nine chart colours (reports-admin §9), one per reason in pareto order, the same in both charts. */
export const colorAt = (i: number): string => cssVar(`--chart-${String((i % 9) + 1)}`, '#1f5fbf');
/** A colour with an alpha, for the reasons not drilled into. */
export const faded = (color: string): string => (/^#[0-9a-f]{6}$/i.test(color) ? `${color}55` : color);

/**
 * What every report chart shares: it fills the height its section gives it (the section sets it per screen
 * size) and draws at once, since reports redraw on every range change and an animation would only delay them.
 */
export const CHART_BASE = { responsive: true, maintainAspectRatio: false, animation: false } as const;
