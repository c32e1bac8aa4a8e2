import { createApiClient } from '@takt/ui';
import type { PrimedRequest } from '@takt/ui';

declare global {
  interface Window {
    /** The GETs index.html started before this script ran. */
    __taktPrimed?: Record<string, PrimedRequest>;
  }
}

/**
 * The floor app's one API client (same origin; the dev server proxies the API paths). It takes the answers
 * to the calls index.html started early.
 */
export const api = createApiClient(
  typeof window !== 'undefined' && window.__taktPrimed ? { primed: window.__taktPrimed } : {},
);
