export * from './common';
export * from './live-entities';
export * from './report-entities';
export * from './requests';
export * from './production-report';
export * from './dashboard-status';
export * from './api-keys';
export * from './production-runs';
