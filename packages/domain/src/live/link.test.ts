import { describe, expect, it } from 'vitest';
import { HEARTBEAT_TIMEOUT_MS } from '../machine-state';
import { edgeMachineLink, linkLost, liveConnection, liveLink } from './link';

const NOW = 1_763_800_000_000;
const FRESH = NOW - 1_000;
const OLD = NOW - HEARTBEAT_TIMEOUT_MS - 1;

describe('linkLost: METRICS.md §1 link heartbeat, 5 minutes', () => {
  it.each([
    ['no heartbeat yet', null, false],
    ['a second ago', FRESH, false],
    ['exactly 5 minutes ago', NOW - HEARTBEAT_TIMEOUT_MS, false],
    ['5 minutes and 1 ms ago', OLD, true],
  ])('%s', (_, heartbeat, lost) => {
    expect(linkLost(heartbeat, NOW)).toBe(lost);
  });
});

describe('liveLink: what every screen shows from the live row', () => {
  it('without a live row: NOT CONFIGURED, UNAVAILABLE, stale', () => {
    expect(liveLink(undefined, NOW)).toEqual({
      lost: false,
      connection: 'NOT CONFIGURED',
      up: false,
      state: 'UNAVAILABLE',
      since: null,
    });
  });

  it.each([
    // [what, row, expected]
    [
      'fresh and connected: the row as it is',
      { connection: 'CONNECTED', lastHeartbeat: FRESH, state: 'ACTIVE', stateSince: NOW - 60_000 },
      { lost: false, connection: 'CONNECTED', up: true, state: 'ACTIVE', since: NOW - 60_000 },
    ],
    [
      'silence between observations is not UNAVAILABLE: the heartbeat is fresh',
      { connection: 'CONNECTED', lastHeartbeat: FRESH, state: 'INACTIVE', stateSince: NOW - 3_600_000 },
      { lost: false, connection: 'CONNECTED', up: true, state: 'INACTIVE', since: NOW - 3_600_000 },
    ],
    [
      'the worker reports the link down',
      { connection: 'DISCONNECTED', lastHeartbeat: FRESH, state: 'UNAVAILABLE', stateSince: FRESH },
      { lost: false, connection: 'DISCONNECTED', up: false, state: 'UNAVAILABLE', since: FRESH },
    ],
    [
      'heartbeat lost: UNAVAILABLE from heartbeat + 5 min',
      { connection: 'CONNECTED', lastHeartbeat: OLD, state: 'ACTIVE', stateSince: OLD - 1_000 },
      {
        lost: true,
        connection: 'DISCONNECTED',
        up: false,
        state: 'UNAVAILABLE',
        since: OLD + HEARTBEAT_TIMEOUT_MS,
      },
    ],
    [
      'heartbeat lost while already UNAVAILABLE keeps its since',
      { connection: 'CONNECTED', lastHeartbeat: OLD, state: 'UNAVAILABLE', stateSince: OLD - 5_000 },
      { lost: true, connection: 'DISCONNECTED', up: false, state: 'UNAVAILABLE', since: OLD - 5_000 },
    ],
    [
      'heartbeat lost in SETUP: setup overrides the machine',
      { connection: 'CONNECTED', lastHeartbeat: OLD, state: 'SETUP', stateSince: OLD - 5_000 },
      { lost: true, connection: 'DISCONNECTED', up: false, state: 'SETUP', since: OLD - 5_000 },
    ],
    [
      'connected before any heartbeat',
      { connection: 'CONNECTING', lastHeartbeat: null, state: 'UNAVAILABLE', stateSince: null },
      { lost: false, connection: 'CONNECTING', up: false, state: 'UNAVAILABLE', since: null },
    ],
  ] as const)('%s', (_, row, expected) => {
    expect(liveLink(row, NOW)).toEqual(expected);
  });
});

describe('edgeMachineLink: a machine behind a gateway for edge health', () => {
  it.each([
    ['no live row', null, null, 'UNKNOWN'],
    ['connected, fresh', 'CONNECTED', FRESH, 'CONNECTED'],
    ['connected, heartbeat lost', 'CONNECTED', OLD, 'DISCONNECTED'],
    ['disconnected', 'DISCONNECTED', FRESH, 'DISCONNECTED'],
  ] as const)('%s', (_, connection, lastHeartbeat, expected) => {
    expect(edgeMachineLink({ connection, lastHeartbeat }, NOW)).toBe(expected);
  });
});

describe('liveConnection (live-operations §4)', () => {
  const now = 10_000_000;
  it.each([
    [false, now, 'NOT CONFIGURED'],
    [false, null, 'NOT CONFIGURED'],
    [true, null, 'CONNECTING'],
    [true, now - 1000, now - 1000],
    [true, now - HEARTBEAT_TIMEOUT_MS, now - HEARTBEAT_TIMEOUT_MS],
    [true, now - HEARTBEAT_TIMEOUT_MS - 1, 'DISCONNECTED'],
  ] as const)('fields %s, heartbeat %s → %s', (hasFields, heartbeat, expected) => {
    expect(liveConnection(hasFields, heartbeat, now)).toBe(expected);
  });
});
