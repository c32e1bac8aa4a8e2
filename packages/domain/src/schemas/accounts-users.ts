import { z } from 'zod';
import { ROLES } from '../dashboard';

// reports-admin §2 "Invites: list, create, resend, delete. Users: edit, delete, lock, unlock, reset password,
// revoke sessions", "Password set and reset with live rules", "Profile: shift notifications, revoke sessions,
// reset password"; §3 "Invitee: invitees list, role"; §5 password rules and "Invitees one per line, trimmed";
// §6 "Invite roles: default kiosk". Shared by the API (validation) and the office (live rules as you type).

/** reports-admin §5 "Password: at least 8 characters, a digit, an uppercase, a lowercase; retype must match." */
export const PASSWORD_MIN_LENGTH = 8;

export type PasswordRule = 'length' | 'digit' | 'upper' | 'lower' | 'match';

/** The texts of a broken rule, as the API answers them. */
export const PASSWORD_PROBLEM_TEXT: Record<PasswordRule, string> = {
  length: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  digit: 'Password must contain a digit.',
  upper: 'Password must contain an uppercase letter.',
  lower: 'Password must contain a lowercase letter.',
  match: 'Retyped password does not match.',
};

/** Each rule of reports-admin §5 and whether `password` (and `retype`) meet it, in the order shown. */
export function passwordChecks(password: string, retype: string): Array<{ rule: PasswordRule; ok: boolean }> {
  return [
    { rule: 'length', ok: password.length >= PASSWORD_MIN_LENGTH },
    { rule: 'digit', ok: /\d/.test(password) },
    { rule: 'upper', ok: /[A-Z]/.test(password) },
    { rule: 'lower', ok: /[a-z]/.test(password) },
    { rule: 'match', ok: password.length > 0 && password === retype },
  ];
}

export const roleSchema = z.enum(ROLES, { error: 'Role must be admin, manager, operator or kiosk' });

/** A user of the company as the users screen lists it. */
export const accountUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  isRoot: z.boolean(),
  locked: z.boolean(),
  createdAt: z.number(),
  /** Live login sessions (revoke sessions ends them). */
  sessions: z.number(),
});
export type AccountUser = z.infer<typeof accountUserSchema>;

const displayName = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'At most 250 characters');

export const userUpdateRequestSchema = z
  .object({ displayName: displayName.optional(), role: roleSchema.optional() })
  .refine((v) => v.displayName !== undefined || v.role !== undefined, 'Nothing to change');
export type UserUpdateRequest = z.input<typeof userUpdateRequestSchema>;

export const inviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  invitedBy: z.string().nullable(),
  createdAt: z.number(),
  sentAt: z.number(),
  expiresAt: z.number(),
  /** reports-admin §3 "brand_override": the name shown instead of Takt (decision 1117); null: Takt. */
  brandOverride: z.string().nullable(),
});
export type Invite = z.infer<typeof inviteSchema>;

/** The longest brand an invite may set (decision 1117). */
export const BRAND_MAX = 40;
const BRAND_RULE = `A brand is at most ${BRAND_MAX} letters, digits, spaces and . , & ' ( ) -`;

/**
 * An invite's brand_override (decision 1117): trimmed, letters of any script, digits, spaces and . , & ' ( ) -
 * only (it goes into e-mail subjects and the app header), at most BRAND_MAX characters; empty means none.
 */
export const brandOverrideSchema = z
  .string({ error: BRAND_RULE })
  .trim()
  .max(BRAND_MAX, BRAND_RULE)
  .regex(/^[\p{L}\p{N} .,&'()-]*$/u, BRAND_RULE)
  .transform((s) => (s === '' ? null : s.replace(/ {2,}/g, ' ')))
  .nullable();

const emailSchema = z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254);

/** reports-admin §5 "Invitees one per line, trimmed": the lines of a text box, blank lines dropped. */
export const inviteeLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** reports-admin §3 "Invitee: invitees list, role"; §6 "Invite roles: default kiosk". */
export const inviteCreateRequestSchema = z.object({
  invitees: z
    .array(z.string({ error: 'Enter a valid e-mail address' }), {
      error: 'Missing required field: E-mail addresses',
    })
    .transform((list) => list.map((e) => e.trim()).filter((e) => e !== ''))
    .pipe(
      z
        .array(emailSchema)
        .min(1, 'Missing required field: E-mail addresses')
        .max(100, 'At most 100 invitees at once'),
    ),
  role: roleSchema.default('kiosk'),
  brandOverride: brandOverrideSchema.optional(),
});
export type InviteCreateRequest = z.input<typeof inviteCreateRequestSchema>;

/** What a set-password link stands for (POST /api/account/link). */
export const accountLinkSchema = z.object({
  kind: z.enum(['invite', 'reset']),
  email: z.string(),
  companyName: z.string(),
});
export type AccountLink = z.infer<typeof accountLinkSchema>;

export const tokenRequestSchema = z.object({
  token: z
    .string({ error: 'Missing required field: Token' })
    .min(1, 'Missing required field: Token')
    .max(200),
});

/** Setting a password through an e-mailed link; the rules of reports-admin §5, retype included. */
export const setPasswordRequestSchema = tokenRequestSchema
  .extend({
    password: z.string({ error: 'Missing required field: Password' }).max(200, 'At most 200 characters'),
    retype: z.string({ error: 'Missing required field: Retype password' }),
    /** An invited user's name; the e-mail address stands in when left out. */
    displayName: displayName.optional(),
  })
  .superRefine((v, ctx) => {
    for (const c of passwordChecks(v.password, v.retype))
      if (!c.ok)
        ctx.addIssue({
          code: 'custom',
          path: [c.rule === 'match' ? 'retype' : 'password'],
          message: PASSWORD_PROBLEM_TEXT[c.rule],
        });
  });
export type SetPasswordRequest = z.input<typeof setPasswordRequestSchema>;

export const forgotPasswordRequestSchema = z.object({
  email: z
    .string({ error: 'Missing required field: Email' })
    .trim()
    .min(1, 'Missing required field: Email')
    .email('Enter a valid e-mail address'),
});

/** reports-admin §2 Profile "shift notifications": notify or not, for which shifts (none listed: every shift). */
export const profileSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  notify: z.boolean(),
  shifts: z.array(z.string()),
  sessions: z.number(),
  /** reports-admin §7 Current user (decision 1097): a password is set; Google authorisation; when created. */
  hasPassword: z.boolean(),
  hasGoogleOAuth: z.boolean(),
  createdAt: z.number(),
});
export type Profile = z.infer<typeof profileSchema>;

export const shiftNotificationsRequestSchema = z.object({
  notify: z.boolean({ error: 'notify must be true or false' }),
  shifts: z.array(z.string().min(1)).max(100),
});
export type ShiftNotificationsRequest = z.input<typeof shiftNotificationsRequestSchema>;
