import { createApiClient } from '@takt/ui';

/** The office app's one API client (same origin; the dev server proxies the API paths). */
export const api = createApiClient();

/** The path of one item of an API collection, or of an action on it: `/api/users/{id}/lock`. */
export const itemPath =
  (collection: string) =>
  (id: string, action = '') =>
    `${collection}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;
