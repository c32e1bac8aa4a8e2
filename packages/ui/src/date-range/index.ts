export * from './model';
export * from './DateRangePicker';
export * from './DateEntry';
