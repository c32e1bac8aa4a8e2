import { describe, expect, it } from 'vitest';
import { tileView } from '../tile-status';
import type { TileInput } from '../tile-status';
import type { EpochMs } from '../brand';
import { machineConnection } from './machine-connection';
import type { MachineConnectionInput } from './machine-connection';

const NOW = Date.UTC(2026, 10, 29, 8, 0);
const MIN = 60_000;

const configured: MachineConnectionInput = {
  sourceConfigured: true,
  fieldsMapped: true,
  everReported: true,
  link: 'CONNECTED',
  lastHeartbeat: NOW - 10_000,
};

describe('machineConnection: one vocabulary for list, Diagnostics and tiles (decision 1055)', () => {
  it.each<[string, Partial<MachineConnectionInput>, string, string, string]>([
    [
      'no data source',
      { sourceConfigured: false, everReported: false, link: null, lastHeartbeat: null },
      'NOT CONFIGURED',
      'noSource',
      'Not configured',
    ],
    [
      'no source, never reported, a live row',
      { sourceConfigured: false, everReported: false },
      'NOT CONFIGURED',
      'noSource',
      'Not configured',
    ],
    [
      'no source, data replayed from a log',
      { sourceConfigured: false, link: null },
      'DISCONNECTED',
      'lost',
      'Disconnected',
    ],
    [
      'a source but no adapter fields',
      { fieldsMapped: false },
      'NOT CONFIGURED',
      'noFields',
      'Not configured',
    ],
    [
      'a new machine no worker has picked up',
      { everReported: false, link: null, lastHeartbeat: null },
      'NEVER REPORTED',
      'connecting',
      'Never Reported',
    ],
    [
      'a new machine being dialled',
      { everReported: false, link: 'CONNECTING', lastHeartbeat: null },
      'NEVER REPORTED',
      'connecting',
      'Never Reported',
    ],
    // The link log's drop is fresh "link evidence", but the adapter never sent a line.
    [
      'an adapter refusing connections',
      { everReported: false, link: 'DISCONNECTED', lastHeartbeat: NOW - 5_000 },
      'NEVER REPORTED',
      'refused',
      'Never Reported',
    ],
    ['connected, heartbeat fresh', {}, 'CONNECTED', 'linkUp', 'Connected'],
    [
      'connected and idle, heartbeat 4 min old',
      { lastHeartbeat: NOW - 4 * MIN },
      'CONNECTED',
      'linkUp',
      'Connected',
    ],
    ['connected but only pings so far', { everReported: false }, 'CONNECTED', 'linkUp', 'Connected'],
    [
      'disconnected for 6 minutes',
      { link: 'DISCONNECTED', lastHeartbeat: NOW - 6 * MIN },
      'DISCONNECTED',
      'lost',
      'Disconnected',
    ],
    [
      'link says up but no heartbeat for 6 minutes',
      { lastHeartbeat: NOW - 6 * MIN },
      'DISCONNECTED',
      'lost',
      'Disconnected',
    ],
    ['reconnecting after it reported', { link: 'CONNECTING' }, 'DISCONNECTED', 'lost', 'Disconnected'],
    ['reported before, no worker now', { link: null }, 'DISCONNECTED', 'lost', 'Disconnected'],
  ])('%s', (_, patch, state, why, words) => {
    const input = { ...configured, ...patch };
    // Shown once it sent data or while the link is up.
    const up =
      input.link === 'CONNECTED' && input.lastHeartbeat != null && NOW - input.lastHeartbeat <= 5 * MIN;
    const heartbeat = input.everReported || up ? input.lastHeartbeat : null;
    expect(machineConnection(input, NOW)).toEqual({ state, why, words, lastHeartbeat: heartbeat });
  });
});

it('a refusing adapter shows no heartbeat: its fresh link-log drop is not one', () => {
  const c = machineConnection(
    { ...configured, everReported: false, link: 'DISCONNECTED', lastHeartbeat: NOW - 1_000 },
    NOW,
  );
  expect(c.lastHeartbeat).toBeNull();
});

describe('a tile shows the same words when the machine is not connected', () => {
  const tile = (p: Partial<TileInput>): TileInput => ({
    status: 'UNAVAILABLE',
    statusSince: NOW - 60 * MIN,
    scheduled: false,
    stale: true,
    faultSince: null,
    faultMessage: null,
    lastHeartbeat: NOW - 5_000,
    downtimefailuredelay: 5,
    downtime_reason: null,
    ...p,
  });
  it.each([
    ['NEVER REPORTED', 'Never Reported'],
    ['DISCONNECTED', 'Disconnected'],
    ['NOT CONFIGURED', 'Not configured'],
  ])('%s → %s', (connection, words) => {
    expect(tileView(tile({ connection }), 'utilization', NOW as EpochMs)).toEqual({
      status: 'unavailable',
      description: words,
    });
  });
  it('a connected machine shows its state; setup still comes first; manual stations keep the stale rule', () => {
    const active = tile({ connection: 'CONNECTED', stale: false, status: 'ACTIVE' });
    expect(tileView(active, 'utilization', NOW as EpochMs).description).toBe('Active');
    const setup = tile({ connection: 'DISCONNECTED', status: 'SETUP' });
    expect(tileView(setup, 'utilization', NOW as EpochMs).description).toBe('Setup');
    const manual = tile({
      connection: 'NOT CONFIGURED',
      workcenterType: 'manual',
      lastHeartbeat: null,
      statusSince: null,
    });
    expect(tileView(manual, 'utilization', NOW as EpochMs).description).toBe('Never Reported');
  });
});
