import { describe, expect, it } from 'vitest';
import {
  editBody,
  errorText,
  mayPush,
  newTabletForm,
  normalizeCode,
  purgedText,
  pushFailedText,
  refreshAllOutcome,
  registerBody,
  revokedCount,
  sortTablets,
  tabletErrors,
  tabletFormOf,
  tabletLabel,
  tabletStateText,
  viewChoices,
  viewText,
} from './tablets';
import type { AdminTablet } from './tablets';

const aTablet = (over: Partial<AdminTablet> = {}): AdminTablet => ({
  id: 't-1',
  serial_number: 'SN-1',
  remote_identifier: null,
  machine_id: null,
  dashboardView: 'opdash',
  state: 'active',
  lastSeenAt: null,
  createdAt: 1,
  ...over,
});

describe('tablet names and states', () => {
  it.each([
    [{ remote_identifier: 'Lathe front' }, 'Lathe front'],
    [{ remote_identifier: null }, 'SN-1'],
    [{ remote_identifier: '', serial_number: '' }, 't-1'],
  ])('%o is called %s', (over, expected) => {
    expect(tabletLabel(aTablet(over))).toBe(expected);
  });

  it.each([
    ['active', 'Active', true],
    ['associated', 'Registered, not yet active', false],
    ['revoked', 'Revoked', false],
  ] as const)('%s reads %s; refresh and restart offered: %s', (state, text, push) => {
    expect(tabletStateText(state)).toBe(text);
    expect(mayPush({ state })).toBe(push);
  });

  it('lists tablets in service by name, revoked ones last, and counts what purge takes', () => {
    const all = [
      aTablet({ id: 'a', remote_identifier: 'Zed', state: 'revoked' }),
      aTablet({ id: 'b', remote_identifier: 'Mill' }),
      aTablet({ id: 'c', remote_identifier: 'Assembly', state: 'associated' }),
    ];
    expect(sortTablets(all).map((x) => x.id)).toEqual(['c', 'b', 'a']);
    expect(revokedCount(all)).toBe(1);
    expect(revokedCount([])).toBe(0);
  });
});

describe('register and edit form', () => {
  it('needs the code to register, in the spec words (reports-admin §5 MissingField)', () => {
    expect(tabletErrors(newTabletForm(), true)).toEqual({ code: 'Missing required field: Code' });
    expect(tabletErrors({ ...newTabletForm(), code: ' - ' }, true)).toEqual({
      code: 'Missing required field: Code',
    });
    expect(tabletErrors(newTabletForm(), false)).toEqual({});
    expect(tabletErrors({ ...newTabletForm(), remoteIdentifier: 'x'.repeat(201) }, false)).toEqual({
      remoteIdentifier: 'At most 200 characters',
    });
  });

  it.each([
    [' k7p-2qx ', 'K7P2QX'],
    ['K7 P2 QX', 'K7P2QX'],
  ])('reads the code %j as %s', (typed, code) => {
    expect(normalizeCode(typed)).toBe(code);
  });

  it('sends the association and the edit, unbound as null, with what the device shows', () => {
    expect(
      registerBody({ code: 'k7p2qx', remoteIdentifier: ' Front ', machineId: 'm-1', view: 'opdash' }),
    ).toEqual({
      code: 'K7P2QX',
      machineId: 'm-1',
      remote_identifier: 'Front',
      dashboardView: 'opdash',
    });
    expect(registerBody({ code: 'K7P2QX', remoteIdentifier: ' ', machineId: '', view: 'downtime' })).toEqual({
      code: 'K7P2QX',
      machineId: null,
      remote_identifier: null,
      dashboardView: 'downtime',
    });
    const form = tabletFormOf(aTablet({ remote_identifier: 'Front', machine_id: 'm-2' }));
    expect(form).toEqual({ code: '', remoteIdentifier: 'Front', machineId: 'm-2', view: 'opdash' });
    expect(editBody({ ...form, machineId: '', view: 'oee' })).toEqual({
      machine_id: null,
      remote_identifier: 'Front',
      dashboardView: 'oee',
    });
  });

  it('offers the workcenter and each live board, and names what a device shows (decision 1041)', () => {
    expect(viewChoices().map((c) => c.value)).toEqual([
      'opdash',
      'utilization',
      'downtime',
      'oee',
      'partsgoal',
    ]);
    expect(viewText('opdash')).toBe('Workcenter (operator tablet)');
    expect(viewText('downtime')).toMatch(/^TV: .+ board$/);
  });
});

describe('outcomes in the spec texts (live-operations §8, reports-admin §8)', () => {
  it('refresh all: "Refreshing All Tablets", or the ids not pushed for the dialog', () => {
    expect(refreshAllOutcome({ notPushed: [] })).toEqual({ kind: 'ok', message: 'Refreshing All Tablets' });
    expect(refreshAllOutcome({ notPushed: ['t-2', 't-3'] })).toEqual({
      kind: 'notPushed',
      ids: ['t-2', 't-3'],
    });
  });

  it('purge and failures', () => {
    expect(purgedText(3)).toBe('3 tablets deleted');
    expect(errorText('Forbidden')).toBe('Error: Forbidden');
  });

  it('a single tablet not reached: the server text, else the same words here', () => {
    expect(pushFailedText('refresh', 'Front', 'Unable to refresh tablet SN-9')).toBe(
      'Unable to refresh tablet SN-9',
    );
    expect(pushFailedText('refresh', 'Front', null)).toBe('Unable to refresh tablet Front');
    expect(pushFailedText('restart', 'Front', null)).toBe('Unable to restart application on tablet Front');
  });
});
