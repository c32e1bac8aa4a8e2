// Decision 1194: statements joined into one message for PostgreSQL's simple protocol, their parameters written as
// literals (the stored outcome on both dialects: services/ingest/src/worker/batch-statements.test.ts).
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { joinable, literal, oneMessage } from './one-message';

describe('one message of statements', () => {
  it('writes each parameter as an escaped literal in its own statement, $10 apart from $1', () => {
    const params = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    const q = oneMessage([
      CompiledQuery.raw(`select ${params.map((_, i) => `$${i + 1}`).join(', ')}`, params),
      CompiledQuery.raw('update t set a = $1, b = $2, c = $3 where id = $4', [
        "it's",
        'back\\slash',
        null,
        7,
      ]),
    ]);
    expect(q.parameters).toEqual([]);
    expect(q.sql).toBe(
      `select ${params.map((p) => `E'${p}'`).join(', ')};\n` +
        "update t set a = E'it''s', b = E'back\\\\slash', c = NULL where id = E'7'",
    );
  });

  it('leaves a placeholder-looking value as text and refuses a placeholder without a parameter', () => {
    expect(oneMessage([CompiledQuery.raw('select $1, $2', ['$2', 'x'])]).sql).toBe("select E'$2', E'x'");
    expect(() => oneMessage([CompiledQuery.raw('select $2', ['x'])])).toThrow('no parameter 2');
  });

  it('joins text, numbers, booleans and null only; not a COPY, binary, dates, arrays or text with NUL', () => {
    const q = (parameters: unknown[], text = 'select $1') => CompiledQuery.raw(text, parameters);
    expect(joinable(q(['a', 1, 2n, true, null]))).toBe(true);
    expect(joinable(q(['x'], 'copy "t" ("a") from stdin'))).toBe(false);
    for (const p of [Buffer.from('x'), new Date(0), ['a'], { a: 1 }, 'nul\0here', NaN])
      expect(joinable(q([p]))).toBe(false);
    expect(literal(null)).toBe('NULL');
    expect(literal("\\'")).toBe("E'\\\\'''");
  });
});
