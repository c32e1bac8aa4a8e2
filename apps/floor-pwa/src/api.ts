import { createApiClient } from '@takt/ui';

/** The floor app's one API client (same origin; the dev server proxies the API paths). */
export const api = createApiClient();
