import { describe, expect, it } from 'vitest';
import { linkToken, publicAccountsPage } from './paths';
import { inviteBody, inviteErrors, inviteState, newInviteForm, passwordRules, userErrors } from './users';

// reports-admin §5 live password rules and "Invitees one per line, trimmed"; §6 "Invite roles: default kiosk".

describe('password rules as you type', () => {
  it.each([
    ['', '', []],
    ['abcdefgh', '', ['length', 'lower']],
    ['Abcdefg1', 'Abcdefg1', ['length', 'digit', 'upper', 'lower', 'match']],
    ['ABCDEFG1', 'ABCDEFG1', ['length', 'digit', 'upper', 'match']],
    ['Abc1', 'Abc1', ['digit', 'upper', 'lower', 'match']],
    ['Abcdefg1', 'Abcdefg2', ['length', 'digit', 'upper', 'lower']],
  ])('%j / %j meets %j', (password, retype, met) => {
    const { rules, valid } = passwordRules(password, retype);
    expect(rules.filter((r) => r.ok).map((r) => r.rule)).toEqual(met);
    expect(valid).toBe(met.length === 5);
    expect(rules.map((r) => r.text)).toEqual([
      'At least 8 characters',
      'A digit',
      'An uppercase letter',
      'A lowercase letter',
      'Retyped password matches',
    ]);
  });
});

describe('the invite form', () => {
  it('defaults to kiosk and sends one trimmed address per line', () => {
    expect(newInviteForm().role).toBe('kiosk');
    const form = { invitees: ' a@shop.example \n\n b@shop.example\r\n', role: 'manager' as const };
    expect(inviteErrors(form)).toEqual({});
    expect(inviteBody(form)).toEqual({ invitees: ['a@shop.example', 'b@shop.example'], role: 'manager' });
  });

  it.each([
    [' \n ', 'Missing required field: E-mail addresses'],
    ['a@shop.example\nnot an address', 'Not an e-mail address: not an address'],
  ])('%j → %s', (invitees, error) => {
    expect(inviteErrors({ invitees, role: 'kiosk' }).invitees).toBe(error);
  });

  it('says an invite expired once its link stopped working', () => {
    expect(inviteState({ expiresAt: 10 }, 9)).toBe('pending');
    expect(inviteState({ expiresAt: 10 }, 10)).toBe('expired');
  });
});

describe('the user form and the public pages', () => {
  it('needs a name', () => {
    expect(userErrors({ displayName: ' ', role: 'admin' }).displayName).toBe('Missing required field: Name');
    expect(userErrors({ displayName: 'Ada', role: 'admin' })).toEqual({});
  });

  it.each([
    ['/app/set-password', 'setPassword'],
    ['/app/set-password/', 'setPassword'],
    ['/app/forgot-password', 'forgotPassword'],
    ['/app/accounts/users', null],
  ])('%s opens without a session: %s', (path, page) => {
    expect(publicAccountsPage(path)).toBe(page);
  });

  it('reads the token from the fragment only', () => {
    expect(linkToken('#token=abc-_1')).toBe('abc-_1');
    expect(linkToken('')).toBeNull();
    expect(linkToken('#token=')).toBeNull();
  });
});
