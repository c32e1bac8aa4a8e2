// Every test sees the whole catalogue, as the office app does once apps/office/src/texts.ts has run.
import { addTexts } from './packages/ui/src/i18n/index';
import { officeTexts } from './packages/ui/src/i18n/office-texts';

addTexts(officeTexts);
