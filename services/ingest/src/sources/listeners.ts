// What a source client (sources/shdr, sources/agent) does with the listeners it was given: a listener that
// throws must never stop the client's loop, and a failing error sink is ignored.

export type ErrorSink = ((error: Error) => void) | undefined;

/** Hands `error` to the sink; what the sink itself throws is dropped. */
export function reportTo(sink: ErrorSink, error: unknown): void {
  try {
    sink?.(error instanceof Error ? error : new Error(String(error)));
  } catch {
    // A failing error sink must not stop the client.
  }
}

/** Calls a listener; what it throws goes to the sink instead of the client's loop. */
export function callListener(listener: () => void, sink: ErrorSink): void {
  try {
    listener();
  } catch (error) {
    reportTo(sink, error);
  }
}
