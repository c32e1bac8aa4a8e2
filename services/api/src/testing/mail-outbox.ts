import type { Selectable } from 'kysely';
import type { CompanyScope, MailOutboxTable } from '@takt/db';
import type { OutboxMail } from '../repositories/mail-outbox';

// Reads of the mail outbox for tests: the product only writes it (decision 0701), so its one row mapping
// lives here with its one reader.

const toOutboxMail = (r: Selectable<MailOutboxTable>): OutboxMail => ({
  id: r.id,
  userId: r.user_id,
  to: r.to_address,
  subject: r.subject,
  text: r.body,
  transport: r.transport,
  status: r.status,
  error: r.error,
  createdAt: r.created_at,
});

/** The company's mail, newest first. */
export async function listOutboxMail(scope: CompanyScope, limit = 100): Promise<OutboxMail[]> {
  const rows = await scope
    .selectFrom('mail_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toOutboxMail);
}
