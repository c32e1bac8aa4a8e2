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

/**
 * An answer's schema (decision 1079): what the server sends (output: defaults applied), every object closed
 * (`additionalProperties: false`), so a field the description does not name is a drift a check can see.
 */
export const toAnswerSchema = (schema: z.ZodType): JsonSchema => jsonSchemaOf(schema, 'output');

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
