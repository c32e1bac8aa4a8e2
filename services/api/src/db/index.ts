export * from './connect';
export * from './scope';
export type * from './schema';
