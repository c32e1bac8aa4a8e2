import type { MailOutboxTable, CompanyScope } from '@takt/db';

// The mail outbox (decision 0701): every message the API sent or tried to send. SQL only.

export interface OutboxMail {
  id: string;
  userId: string | null;
  to: string;
  subject: string;
  text: string;
  transport: MailOutboxTable['transport'];
  status: MailOutboxTable['status'];
  error: string | null;
  createdAt: number;
}

export async function insertOutboxMail(scope: CompanyScope, input: Omit<OutboxMail, 'id'>): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('mail_outbox', {
      id,
      user_id: input.userId,
      to_address: input.to,
      subject: input.subject,
      body: input.text,
      transport: input.transport,
      status: input.status,
      error: input.error,
      created_at: input.createdAt,
    })
    .execute();
  return id;
}
