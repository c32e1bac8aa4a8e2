export * from './shdr';
export * from './shdr-client';
export * from './simulator';
export * from './service';
export * from './live-tracker';
export { demoAdapterFields } from './demo-adapter';
