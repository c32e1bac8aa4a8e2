import { createApiClient } from '@takt/ui';

/** The office app's one API client (same origin; the dev server proxies the API paths). */
export const api = createApiClient();
