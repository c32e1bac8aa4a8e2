import { forbidden } from '../http/errors';
import type { UserCaller } from '../http/context';
import type { MailTransport } from '../mail/transport';
import { sendMail } from '../mail/send';
import type { EmailPreferences } from '../repositories/email-notifications';
import { getEmailPreferences, saveEmailPreferences } from '../repositories/email-notifications';
import type { ServiceCtx } from './context';

// E-mail preferences and the test e-mail (live-operations §7, §8; reports-admin §2 Administration).

/** live-operations §8 E-mail texts; the UI shows `message`. */
export const EMAIL_TEXTS = {
  sent: 'Sent. You should get it within the next 10 minutes.',
  failed: 'Something went wrong. Please try again.',
  saved: 'Your preferences have been updated.',
} as const;

/** A user who never saved preferences gets every e-mail (decision 0701). */
export const DEFAULT_EMAIL_PREFERENCES: EmailPreferences = {
  receiveDowntimeEmail: true,
  receiveUtilizationEmail: true,
  receiveBenchmarkingEmail: true,
};

/** Preferences and mail belong to a person: a tablet caller has neither. */
export function userCallerOf(ctx: ServiceCtx): UserCaller {
  if (ctx.caller.kind !== 'user') throw forbidden();
  return ctx.caller;
}

export async function emailPreferences(ctx: ServiceCtx): Promise<EmailPreferences> {
  const { user } = userCallerOf(ctx);
  return (await getEmailPreferences(ctx.scope, user.id)) ?? DEFAULT_EMAIL_PREFERENCES;
}

export async function updateEmailPreferences(
  ctx: ServiceCtx,
  prefs: EmailPreferences,
): Promise<EmailPreferences & { message: string }> {
  const { user } = userCallerOf(ctx);
  await saveEmailPreferences(ctx.scope, user.id, prefs, ctx.now);
  return { ...prefs, message: EMAIL_TEXTS.saved };
}

/**
 * PUT /api/emailnotifications/sendemail/: a test message to the caller's own address. A failure is
 * returned (not thrown) so the outbox row recording it commits; the route turns it into the error answer.
 */
export async function sendTestEmail(
  ctx: ServiceCtx,
  transport: MailTransport,
): Promise<{ sent: boolean; message: string }> {
  const { user, company } = userCallerOf(ctx);
  const result = await sendMail(
    ctx.scope,
    transport,
    {
      userId: user.id,
      to: user.email,
      subject: 'Takt test e-mail',
      text:
        `Hello ${user.displayName},\n\nThis is a test e-mail from Takt for ${company.name}. ` +
        'If you can read it, e-mail from Takt reaches you.\n',
    },
    ctx.now,
  );
  return result.ok ? { sent: true, message: EMAIL_TEXTS.sent } : { sent: false, message: EMAIL_TEXTS.failed };
}
