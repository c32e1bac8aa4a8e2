export * from './brand';
export * from './machine-state';
export * from './dashboard';
export * from './tile-status';
export * from './permissions';
export * from './regions';
export * from './palette';
export * from './benchmark';

// Time and calendar
export * from './time/civil';
export * from './time/zone';
export * from './time/window';
export * from './time/date-entry';
export * from './calendar/time-context';
export * from './calendar/shifts';
export * from './calendar/shift-overlaps';
export * from './calendar/intervals';
export * from './calendar/quick-links';

// State derivation
export * from './derive/observations';
export * from './derive/outputs';
export * from './derive/state-deriver';
export * from './derive/link';
export * from './derive/downtime';
export * from './derive/downtime-pieces';

// Metrics
export * from './metrics/oee';
export * from './metrics/planned';
export * from './metrics/parts-goal';
export * from './metrics/production';
export * from './metrics/waterfall';

// Rollups
export * from './rollup/rollup';
export * from './rollup/days';
export * from './rollup/edges';

// Report cells (report calls)
export * from './reports/report-cells';
export * from './reports/overrides';
export * from './reports/job-report';

// Live-operations rules
export * from './live/status';
export * from './live/rules';
export * from './live/job-standards';
export * from './live/link';
export * from './live/machine-connection';
export * from './live/figures';
export * from './live/channel';
export * from './live/edge-health';
export * from './live/board-device';
export * from './live/auto-dispatch';

// Ingest contract (types the API and ingest share)
export * from './ingest/contract';
export * from './ingest/source-policy';

// zod schemas
export * from './schemas/index';
export * from './sync';
