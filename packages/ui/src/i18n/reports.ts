import { t } from './index';
import type { MessageKey, Translate } from './index';

// The report tools' texts now live in the one catalogue (en.ts, "Reports" section); `tr` stays as the name the
// report code uses for them.
export type ReportsMessageKey = MessageKey;
export const tr: Translate = t;
