import type { Deps } from './context';

/** Without TAKT_PUBLIC_URL (env.ts makes it `http://localhost:<PORT>`), tests and tools get the default port. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

/**
 * The address links in e-mail start with (decision 0989): TAKT_PUBLIC_URL, never the request's Host or URL,
 * which a client can forge to send a reset token to its own site.
 */
export const publicUrlOf = (deps: Pick<Deps, 'publicUrl'>): string =>
  (deps.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
