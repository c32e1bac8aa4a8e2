export * from './connect';
export * from './scope';
export type * from './schema';
export * from './rows';
export * from './inbox';
export * from './observations';
export * from './batch-insert';
export * from './sources';
