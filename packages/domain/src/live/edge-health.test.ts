import { describe, expect, it } from 'vitest';
import type { EdgeHealthInput } from './edge-health';
import {
  bufferTone,
  EDGE_HEALTH_LABEL,
  EDGE_HEALTH_TONE,
  edgeHealth,
  lastResponseTone,
  supervisorHeartbeat,
} from './edge-health';

const NOW = Date.UTC(2024, 0, 1, 12);

describe('edgeHealth (reports-admin §4)', () => {
  const ago = (ms: number) => NOW - ms;
  it.each<[string, EdgeHealthInput, string]>([
    ['never reported', { lastResponse: null }, 'NeverReported'],
    ['never reported, machines listed', { lastResponse: null, machines: ['CONNECTED'] }, 'NeverReported'],
    ['answered just now, no machines', { lastResponse: ago(0) }, 'Normal'],
    [
      'answered 300000 ms ago: still in time',
      { lastResponse: ago(300_000), machines: ['CONNECTED'] },
      'Normal',
    ],
    ['answered 300001 ms ago', { lastResponse: ago(300_001), machines: ['CONNECTED'] }, 'NotReporting'],
    [
      'some machines silent',
      { lastResponse: ago(1_000), machines: ['CONNECTED', 'DISCONNECTED'] },
      'MixedStatus',
    ],
    ['every machine silent', { lastResponse: ago(1_000), machines: ['DISCONNECTED'] }, 'MixedStatus'],
    ['a machine unknown', { lastResponse: ago(1_000), machines: ['CONNECTED', 'UNKNOWN'] }, 'Unknown'],
    ['a clock far ahead', { lastResponse: NOW + 3_600_000 }, 'Unknown'],
    ['a clock slightly ahead', { lastResponse: NOW + 5_000 }, 'Normal'],
    ['not a number', { lastResponse: Number.NaN }, 'Unknown'],
  ])('%s → %s', (_, input, health) => {
    expect(edgeHealth(input, NOW)).toBe(health);
  });

  it.each([
    ['NeverReported', 'warning', 'Never Reported'],
    ['NotReporting', 'danger', 'Not Reporting'],
    ['MixedStatus', 'warning', 'Degraded'],
    ['Normal', 'success', 'Normal'],
    ['Unknown', 'danger', 'Unknown'],
  ] as const)('%s shows %s as %s', (health, tone, label) => {
    expect([EDGE_HEALTH_TONE[health], EDGE_HEALTH_LABEL[health]]).toEqual([tone, label]);
  });

  it.each([
    [null, null],
    [0, 'success'],
    [1_000, 'success'],
    [1_001, 'danger'],
  ])('buffer %j → %j', (buffered, tone) => {
    expect(bufferTone(buffered)).toBe(tone);
  });

  it.each([
    [null, null],
    [ago(300_000), 'success'],
    [ago(300_001), 'danger'],
  ])('last response %j → %j', (last, tone) => {
    expect(lastResponseTone(last, NOW)).toBe(tone);
  });

  it.each([
    [null, { tone: null, text: 'waiting' }],
    [ago(60_000), { tone: 'success', text: 'ok' }],
    [ago(120_001), { tone: 'warning', text: 'late' }],
    [ago(300_001), { tone: 'danger', text: 'lost' }],
  ])('supervisor last join %j → %j', (last, expected) => {
    expect(supervisorHeartbeat(last, NOW)).toEqual(expected);
  });
});
