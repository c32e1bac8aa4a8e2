// Intercepted requests that never hang: a route handler that throws ends its request and fails the test at
// once, and a route.fetch that fails before the server answered hands the page the reset it met, so the page
// sends the request again. Without this a throw in a handler left the page waiting for an answer until the
// test's own timeout, with the cause only in an unhandled rejection.
import type { APIResponse, Page, Route } from 'playwright-core';

export interface GuardedRoute {
  /** What the handler threw, in order; each request it was handling was aborted. */
  readonly errors: readonly unknown[];
  /** `work`'s result, unless the handler throws first: then that error, at once. */
  until<T>(work: Promise<T>): Promise<T>;
}

/** `page.route(url, handler)`, with any throw of the handler ending its request and reported by `until`. */
export async function guardRoute(
  page: Page,
  url: string,
  handler: (route: Route) => Promise<void>,
): Promise<GuardedRoute> {
  const errors: unknown[] = [];
  let fail: (err: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // Observed through until(); a failure outside it is still in `errors`.
  failed.catch(() => {});
  await page.route(url, async (route) => {
    try {
      await handler(route);
    } catch (err) {
      errors.push(err);
      fail(
        new Error(`the ${url} route handler threw (its request was aborted): ${String(err)}`, { cause: err }),
      );
      // The handler may have ended the request before it threw.
      await route.abort('failed').catch(() => {});
    }
  });
  return { errors, until: (work) => Promise.race([work, failed]) };
}

/**
 * Ends the intercepted request as a reset connection, so the page sends it again, after its route.fetch failed
 * with `err` before the server answered (such an attempt is not one the test planned).
 */
export async function resetAfterFailedFetch(route: Route, err: unknown): Promise<void> {
  console.log(`${route.request().url()}: route.fetch failed (${String(err)}); the page's request was reset`);
  await route.abort('connectionreset');
}

/** route.fetch(), or undefined once resetAfterFailedFetch has ended the request the fetch failed for. */
export async function fetchOrReset(route: Route): Promise<APIResponse | undefined> {
  try {
    return await route.fetch();
  } catch (err) {
    await resetAfterFailedFetch(route, err);
    return undefined;
  }
}
