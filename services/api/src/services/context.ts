import type { CompanyScope } from '@takt/db';
import type { Caller } from '../http/context';

/**
 * What a service function (the logic behind a route or an offline sync command) gets. Routes build it from
 * the request; the sync endpoint builds it per command, with `at` = the command's occurredAt so facts are
 * recorded when they happened, not when they arrived (ARCHITECTURE.md "Offline sync contract").
 * Service functions run inside `scope` (which may be a transaction) and throw ApiError with the spec's texts.
 */
export interface ServiceCtx {
  scope: CompanyScope;
  /** When the fact happened (epoch ms). */
  at: number;
  /** The server clock (epoch ms), for "now"-relative rules such as the 24-hour downtime window. */
  now: number;
  caller: Caller;
}
