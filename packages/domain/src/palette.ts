/**
 * live-operations §9 "Chart palettes: nine colors": the series colours of every chart, in order (the same
 * values as packages/ui tokens.css --chart-1..9, which the browser reads; this list is for what is
 * coloured outside a stylesheet, such as the shift colours the API answers).
 */
export const CHART_COLORS = [
  '#1f5fbf',
  '#e07b00',
  '#1b7a3a',
  '#c0262d',
  '#7b2c9e',
  '#00838f',
  '#a0522d',
  '#c2185b',
  '#5d6b78',
] as const;
