// Branded primitives: a number that means epoch milliseconds is not interchangeable with a duration.
declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Milliseconds since 1970-01-01T00:00:00Z. */
export type EpochMs = Brand<number, 'EpochMs'>;
/** A length of time in milliseconds. */
export type DurationMs = Brand<number, 'DurationMs'>;

export const epochMs = (n: number): EpochMs => n as EpochMs;
export const durationMs = (n: number): DurationMs => n as DurationMs;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
