// Every test sees the whole catalogue, as the office app does once apps/office/src/texts.ts has run.
import { afterAll } from 'vitest';
import { dropSpareDatabases } from '@takt/db/testing';
import { addTexts } from './packages/ui/src/i18n/index';
import { officeTexts } from './packages/ui/src/i18n/office-texts';

addTexts(officeTexts);

// A file of a group with fresh modules per file drops its spare PostgreSQL test databases when it ends; the
// isolated group's workers keep theirs for their next file (decision 1135).
if (process.env.TAKT_TEST_KEEP_SPARE_DBS !== '1') afterAll(dropSpareDatabases);
