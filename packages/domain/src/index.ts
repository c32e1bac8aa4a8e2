export * from './brand';
export * from './machine-state';
export * from './dashboard';
export * from './tile-status';
export * from './permissions';
