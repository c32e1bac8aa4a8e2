import { ApiError, t } from '@takt/ui';

// What every administration form shares: the name rule, and the server's error as the form shows it at its
// top (reports-admin §8 "Most forms show the server error data at top and scroll to it; errors without a
// list are wrapped from their message").

/** reports-admin §5: "MissingField gives 'Missing required field: ' plus label". */
export const missingField = (label: string): string => `${t('admin.missingField')}${label}`;

/** The name every plant resource has: required, at most 250 characters (the API's limit). */
export function nameError(name: string): string | null {
  if (name.trim() === '') return missingField(t('admin.field.name'));
  if (name.trim().length > 250) return t('admin.tooLong', { max: 250 });
  return null;
}

export interface FormError {
  heading: string;
  lines: string[];
}

/** A failed call as the form shows it: the list the server sent, else its message, under `heading`. */
export function formError(err: unknown, heading: string): FormError {
  if (err instanceof ApiError) {
    if (err.isNetworkError) return { heading, lines: [t('common.requestError')] };
    const issues = Array.isArray(err.issues) ? (err.issues as Array<{ message?: unknown }>) : [];
    const lines = issues.flatMap((i) => (typeof i.message === 'string' ? [i.message] : []));
    if (lines.length > 0) return { heading, lines };
    return { heading, lines: [err.message] };
  }
  return { heading, lines: [t('common.requestError')] };
}

/** Keeps only the errors that are set: the form is valid when this is empty. */
export function setErrors<K extends string>(errors: Record<K, string | null>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [k, v] of Object.entries(errors) as Array<[K, string | null]>) if (v) out[k] = v;
  return out;
}

/** reports-admin §8 "Setup stage submit failure: server message or 'Unable to submit'". */
export function serverMessageOr(err: unknown, fallback: string): FormError {
  if (err instanceof ApiError && !err.isNetworkError && err.message) {
    const { lines } = formError(err, fallback);
    return { heading: err.message, lines: lines.filter((l) => l !== err.message) };
  }
  return { heading: fallback, lines: [] };
}
