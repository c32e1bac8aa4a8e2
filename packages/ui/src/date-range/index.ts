export * from './model';
export * from './DateRangePicker';
