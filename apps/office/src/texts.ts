import { addTexts } from '@takt/ui';
import { officeTexts } from '@takt/ui/office-texts';

// The office screens' own texts join the catalogue before any page module runs: main.tsx imports this first.
addTexts(officeTexts);
