// Structured logs: one JSON object a line, so a log pipeline reads every field without parsing
// free text. The sink is passed in through Deps (no global logger): main.ts writes to stdout, tests pass a
// collecting sink or none.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEntry {
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

export type LogSink = (entry: LogEntry) => void;

const RANK: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/**
 * A sink writing each entry at or above `minLevel` as one JSON line, stamped with the time (ISO 8601, so
 * people and tools read it alike). An error's message and stack are kept: JSON.stringify drops both.
 */
export function jsonLines(
  write: (line: string) => void,
  minLevel: LogLevel | 'silent' = 'info',
  now: () => number = Date.now,
): LogSink {
  return (entry) => {
    if (RANK[entry.level] < RANK[minLevel]) return;
    write(JSON.stringify({ time: new Date(now()).toISOString(), ...entry }, errorFields));
  };
}

function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

/**
 * A `(message) => void` log for workers that write text (ingest, mail, notifications): each message becomes an
 * entry of `component`; a message that says it failed is a warning.
 */
export function textLog(sink: LogSink, component: string): (message: string) => void {
  return (message) =>
    sink({ level: /\bfail(ed|s)?\b|\berror\b/i.test(message) ? 'warn' : 'info', msg: message, component });
}
