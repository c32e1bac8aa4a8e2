export * from './calendar';
export * from './sources';
export { sinceLastStart } from './range-reads';
export * from './recompute';
export * from './read';
export * from './touch';
export * from './days';
export * from './claims';
export * from './manual-states';
