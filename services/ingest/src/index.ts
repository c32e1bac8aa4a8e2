export * from './shdr';
export * from './shdr-client';
export * from './simulator';
export * from './service';
export * from './live-tracker';
export * from './devices';
export { demoAdapterFields } from './demo-adapter';
