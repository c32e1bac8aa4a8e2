// The office app's own screens' texts (reports-admin §2 administration, internal screens, production runs and
// the schedule, e-mail), one file per feature. The office app registers them at start (apps/office/src/texts.ts);
// the floor app never loads them. Texts quoted by the spec are verbatim; keep them so.
import { accounts } from './accounts';
import { adminPlant } from './admin-plant';
import { adminMachines } from './admin-machines';
import { adminTablets } from './admin-tablets';
import { dateEntry } from './date-entry';
import { operatorRunsTexts } from './operator-runs';
import { email } from './email';
import { internalCompanies } from './internal-companies';
import { internalAdapters } from './internal-adapters';
import { internalGateways } from './internal-gateways';
import { partsTexts } from './parts-texts';
import { planning } from './planning';
import { production } from './production';
import { remainingScreens } from './remaining-screens';
import { schedule } from './schedule';
import { simulation } from './simulation';
import { scheduleMore } from './schedule-more';
import { userPreferencesTexts } from './user-preferences';

export const officeTexts = {
  ...adminPlant,
  ...adminMachines,
  ...adminTablets,
  ...dateEntry,
  ...operatorRunsTexts,
  ...accounts,
  ...production,
  ...partsTexts,
  ...planning,
  ...remainingScreens,
  ...schedule,
  ...scheduleMore,
  ...simulation,
  ...email,
  ...internalCompanies,
  ...internalAdapters,
  ...internalGateways,
  ...userPreferencesTexts,
} as const;
