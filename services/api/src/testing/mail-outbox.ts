import type { CompanyScope } from '@takt/db';
import type { OutboxMail } from '../repositories/mail-outbox';
import { toOutboxMail } from '../repositories/mail-outbox';

// Reads of the mail outbox for tests: the product only writes it (decision 0701).

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
