import { describe, expect, it } from 'vitest';
import { inviteBody, inviteErrors, mayBrand } from './users';

// reports-admin §3 "Invitee: invitees list, role, brand_override" (decision 1117): the invite form's brand.

const RULE = "A brand is at most 40 letters, digits, spaces and . , & ' ( ) -";
const form = (brand?: string) => ({ invitees: 'a@shop.example', role: 'kiosk' as const, brand });

describe('the invite form’s brand', () => {
  it('is sent trimmed, and left out when empty', () => {
    expect(inviteBody(form('  Acme   Monitoring '))).toEqual({
      invitees: ['a@shop.example'],
      role: 'kiosk',
      brandOverride: 'Acme Monitoring',
    });
    expect(inviteBody(form('   '))).toEqual({ invitees: ['a@shop.example'], role: 'kiosk' });
    expect(inviteBody(form())).toEqual({ invitees: ['a@shop.example'], role: 'kiosk' });
    expect(inviteErrors(form("O'Neil & Sons (Tools)"))).toEqual({});
  });

  it.each(['x'.repeat(41), '<b>Acme</b>', 'Acme: Tools', 'Acme\nTools'])(
    'refuses %j in the rule’s words',
    (b) => {
      expect(inviteErrors(form(b)).brand).toBe(RULE);
    },
  );

  it('is offered to root users and service providers only', () => {
    expect(mayBrand({ isRoot: true, company: { product_tier: 'full' } })).toBe(true);
    expect(mayBrand({ isRoot: false, company: { product_tier: 'serviceProvider' } })).toBe(true);
    expect(mayBrand({ isRoot: false, company: { product_tier: 'full' } })).toBe(false);
  });
});
