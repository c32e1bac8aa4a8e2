// Rollups: a mergeable aggregate per machine per bucket (decision 0105), split by concern: what a row holds
// (measures), building rows from a machine's facts (build), summing rows into report cells (sum) and the
// packed series of one machine's rows (series).
export * from './measures';
export * from './build';
export * from './sum';
export * from './series';
export * from './no-data';
export * from './manual-states';
export * from './downtime-figures';
