import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

/** An error that crosses the HTTP boundary: a status, a stable code and the text the user sees. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly issues?: Array<{ field: string; code: string; message: string }>,
  ) {
    super(message);
  }
}

export const notAuthenticated = () => new ApiError(401, 'NOT_AUTHENTICATED', 'You are not logged in.');
export const notFound = (what = 'Resource') => new ApiError(404, 'NOT_FOUND', `${what} not found.`);
export const forbidden = () => new ApiError(403, 'FORBIDDEN', 'You do not have permission to do that.');

/** reports-admin §5 ValidationError: a list of problems, each with field, code and details. */
export function validationError(error: ZodError): ApiError {
  // A field the call does not take (a strict schema) is named as the field, one problem per unknown key.
  const issues = error.issues.flatMap((i): Array<{ field: string; code: string; message: string }> =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({
          field: [...i.path, key].join('.'),
          code: i.code,
          message: `Unknown field: ${key}`,
        }))
      : [{ field: i.path.join('.') || '(body)', code: i.code, message: i.message }],
  );
  return new ApiError(400, 'VALIDATION_ERROR', issues.map((i) => i.message).join('; '), issues);
}

/** A 400 with the list of problems, each with field, code and message (reports-admin §5 ValidationError). */
export function invalidInput(issues: Array<{ field: string; code: string; message: string }>): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', issues.map((i) => i.message).join('; '), issues);
}
