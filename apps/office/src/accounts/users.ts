import { brandOverrideSchema, inviteeLines, passwordChecks, ROLES } from '@takt/domain';
import type { AccountUser, Invite, PasswordRule, Role } from '@takt/domain';
import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { missingField, setErrors } from '../admin/form';

// The users, invites and password forms (reports-admin §2, §5), kept out of the components so they are tested
// as plain functions.

export const ROLE_TEXT: Record<Role, MessageKey> = {
  admin: 'users.role.admin',
  manager: 'users.role.manager',
  operator: 'users.role.operator',
  kiosk: 'users.role.kiosk',
};

export const roleOptions = (): Array<{ value: Role; label: string }> =>
  ROLES.map((r) => ({ value: r, label: t(ROLE_TEXT[r]) }));

export interface UserForm {
  displayName: string;
  role: Role;
}

export const userFormOf = (u: Pick<AccountUser, 'displayName' | 'role'>): UserForm => ({
  displayName: u.displayName,
  role: u.role,
});

export const userErrors = (f: UserForm) =>
  setErrors({
    displayName:
      f.displayName.trim() === ''
        ? missingField(t('users.name'))
        : f.displayName.trim().length > 250
          ? t('admin.tooLong', { max: 250 })
          : null,
  });

/** Users by name, as the API lists them, so a renamed user moves to its place. */
export const sortUsers = (users: readonly AccountUser[]): AccountUser[] =>
  [...users].sort((a, b) => a.displayName.localeCompare(b.displayName) || a.email.localeCompare(b.email));

export interface InviteForm {
  invitees: string;
  /** reports-admin §6 "Invite roles: default kiosk". */
  role: Role;
  /** reports-admin §3 "brand_override" (decision 1117): root users and service providers only; '' for none. */
  brand?: string;
}

/** Who may give an invite a brand (decision 1117): root users and users of a service provider. */
export const mayBrand = (me: { isRoot: boolean; company: { product_tier: string } }): boolean =>
  me.isRoot || me.company.product_tier === 'serviceProvider';

/** The brand as the API takes it, or the rule's words when it would refuse it. */
function brandOf(text: string | undefined): { value: string | null } | { error: string } {
  const parsed = brandOverrideSchema.safeParse(text ?? '');
  return parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0]?.message ?? '' };
}

export const newInviteForm = (): InviteForm => ({ invitees: '', role: 'kiosk' });

/** A loose e-mail check for typing; the API has the last word. */
const looksLikeEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s);

/** reports-admin §5 "Invitees one per line, trimmed": required, and each line an address; a brand as the API's. */
export const inviteErrors = (f: InviteForm) => {
  const lines = inviteeLines(f.invitees);
  const bad = lines.find((l) => !looksLikeEmail(l));
  const brand = brandOf(f.brand);
  return setErrors({
    invitees:
      lines.length === 0
        ? t('invites.inviteesRequired')
        : bad
          ? t('invites.badAddress', { email: bad })
          : null,
    brand: 'error' in brand ? brand.error : null,
  });
};

export const inviteBody = (f: InviteForm): { invitees: string[]; role: Role; brandOverride?: string } => {
  const brand = brandOf(f.brand);
  return {
    invitees: inviteeLines(f.invitees),
    role: f.role,
    ...('value' in brand && brand.value !== null ? { brandOverride: brand.value } : {}),
  };
};

/** An invite's state at `now`: its link works until it expires. */
export const inviteState = (i: Pick<Invite, 'expiresAt'>, now: number): 'pending' | 'expired' =>
  i.expiresAt <= now ? 'expired' : 'pending';

const RULE_TEXT: Record<PasswordRule, MessageKey> = {
  length: 'password.rule.length',
  digit: 'password.rule.digit',
  upper: 'password.rule.upper',
  lower: 'password.rule.lower',
  match: 'password.rule.match',
};

/** reports-admin §5 live rules: each rule with its text and whether it is met, and whether all are. */
export function passwordRules(
  password: string,
  retype: string,
): {
  rules: Array<{ rule: PasswordRule; text: string; ok: boolean }>;
  valid: boolean;
} {
  const rules = passwordChecks(password, retype).map((c) => ({ ...c, text: t(RULE_TEXT[c.rule]) }));
  return { rules, valid: rules.every((r) => r.ok) };
}

/** A day as the company reads it ("Nov 14, 2023"): when a user was created needs no time of day. */
export const formatDay = (ms: number, zone: { locale: string; timeZone: string }): string =>
  new Intl.DateTimeFormat(zone.locale, { dateStyle: 'medium', timeZone: zone.timeZone }).format(ms);
