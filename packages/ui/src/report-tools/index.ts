export * from './debounce';
export * from './preferences';
export * from './shift-filter';
export * from './ShiftFilter';
export * from './user-token';
