import { z } from 'zod';

// zod schemas as JSON Schema 2020-12 (what OpenAPI 3.1 uses), through zod 4's own z.toJSONSchema.

export type JsonSchema = Record<string, unknown>;

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
};

// Query schemas coerce strings and bodies transform: the description shows what a client sends (input).
export const toSchema = (schema: z.ZodType): JsonSchema => jsonSchemaOf(schema, 'input');

/** Keywords whose value maps names (of fields) to schemas: a field may be called `default`. */
const NAMED = new Set(['properties', 'patternProperties', '$defs']);

/** The schema without its `default` keywords (a request's defaults say nothing of an answer). */
const withoutDefaults = (node: unknown, named = false): unknown =>
  Array.isArray(node)
    ? node.map((n) => withoutDefaults(n))
    : node !== null && typeof node === 'object'
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([key]) => named || key !== 'default')
            .map(([key, value]) => [key, withoutDefaults(value, !named && NAMED.has(key))]),
        )
      : node;

/**
 * An answer's schema (decision 1079): what the server sends (output: every field there, defaults or not),
 * every object closed (`additionalProperties: false`), so a field the description does not name is a drift a
 * check can see. The entity schemas' defaults (for requests) are left out: they would read as example values.
 */
export const toAnswerSchema = (schema: z.ZodType): JsonSchema =>
  withoutDefaults(jsonSchemaOf(schema, 'output')) as JsonSchema;

export function queryParameters(schema: z.ZodType): JsonSchema[] {
  const json = toSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}

export const ERROR = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        issues: {
          type: 'array',
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
};

export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
