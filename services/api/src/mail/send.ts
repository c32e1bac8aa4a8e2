import type { CompanyScope } from '@takt/db';
import { insertOutboxMail } from '../repositories/mail-outbox';
import type { MailTransport, OutgoingMail } from './transport';

export type SendResult = { ok: true; id: string } | { ok: false; id: string; error: string };

/**
 * Send one message and record it in the company's mail outbox, delivered or not (decision 0701). A
 * transport failure is returned, not thrown: the caller answers with the spec's failure text and the
 * failed row stays for whoever looks into it.
 */
export async function sendMail(
  scope: CompanyScope,
  transport: MailTransport,
  mail: OutgoingMail & { userId: string | null },
  now: number,
): Promise<SendResult> {
  let error: string | null = null;
  try {
    await transport.deliver(mail);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const id = await insertOutboxMail(scope, {
    userId: mail.userId,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    transport: transport.kind,
    status: error ? 'failed' : transport.kind === 'smtp' ? 'sent' : 'stored',
    error,
    createdAt: now,
  });
  return error ? { ok: false, id, error } : { ok: true, id };
}
