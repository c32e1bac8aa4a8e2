import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import type { Company } from '../repositories/company';
import { activateTablet, associateTablet, issueTabletToken, requestCode } from '../repositories/tablets';

/**
 * A tablet registered and activated without the tablet-auth socket, bound to `machineId` (null: unbound).
 * Its `cookie` authenticates like the floor app's.
 */
export async function aTablet(
  db: Kysely<Database>,
  company: Company,
  machineId: string | null,
  now: number,
  serial = `SN-${crypto.randomUUID().slice(0, 8)}`,
): Promise<{ id: string; token: string; cookie: string }> {
  const { tablet } = await requestCode(db, serial, now);
  await associateTablet(db, tablet.id, {
    companyId: company.id,
    machineId,
    remoteIdentifier: null,
    userId: 'u',
  });
  const token = (await issueTabletToken(db, tablet.id))!;
  await activateTablet(db, token, now);
  return { id: tablet.id, token, cookie: `takt_tablet=${token}` };
}
