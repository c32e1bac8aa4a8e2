// The node's threads named for `top -H`, `ps -L` and /proc (decision 1260): on Linux every thread of a Node process
// is called "node", so an operator (or a bench) could not tell the ingest thread from the report threads or V8's own
// helpers. Linux only; elsewhere, or where /proc is read-only, the thread keeps its name.
import { writeFileSync } from 'node:fs';

/** The longest name Linux keeps for a thread (16 bytes with the terminating NUL). */
export const THREAD_NAME_MAX = 15;

/** Names the calling thread `name` (cut to THREAD_NAME_MAX); false where it could not. */
export function nameThisThread(name: string): boolean {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, THREAD_NAME_MAX));
    return true;
  } catch {
    return false;
  }
}
