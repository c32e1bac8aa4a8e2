export * from './brand';
export * from './machine-state';
export * from './dashboard';
export * from './tile-status';
export * from './permissions';

// Time and calendar (issue 3 points 3–4)
export * from './time/civil';
export * from './time/zone';
export * from './calendar/time-context';
export * from './calendar/shifts';
export * from './calendar/intervals';
export * from './calendar/quick-links';

// State derivation (issue 3 point 1)
export * from './derive/observations';
export * from './derive/outputs';
export * from './derive/state-deriver';
export * from './derive/downtime';
export * from './derive/downtime-pieces';

// Metrics (issue 3 point 2)
export * from './metrics/oee';
export * from './metrics/planned';
export * from './metrics/parts-goal';
export * from './metrics/production';

// Rollups (issue 3 point 5)
export * from './rollup/rollup';

// Report cells (issue 5: report calls)
export * from './reports/report-cells';

// Live-operations rules (issue 3 points 6–7)
export * from './live/status';
export * from './live/rules';

// zod schemas (issue 3 point 8)
export * from './schemas/index';
export * from './sync';
