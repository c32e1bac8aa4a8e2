import { describe, expect, it } from 'vitest';
import { isJsonContentType } from './content-type';

// Decision 0994: the one body type every route parses.
describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['APPLICATION/JSON;Charset="UTF-8"', true],
    ['application/json;', true],
    [undefined, false],
    ['', false],
    ['text/plain', false],
    ['text/plain;charset=UTF-8', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['application/json; charset=latin1', false],
    ['application/json; charset=utf-8; profile=x', false],
    ['application/vnd.api+json', false],
    ['application/jsonx', false],
  ] as const)('%s: %s', (header, json) => {
    expect(isJsonContentType(header)).toBe(json);
  });
});
