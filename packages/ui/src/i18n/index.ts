import { en } from './en';
import type { Catalogue, MessageKey } from './en';

export { en };
export type { Catalogue, MessageKey };

export type MessageParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;

/** Replaces `{name}` placeholders; an unknown placeholder stays visible so a missing param is noticed. */
export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** Texts an app adds to the English catalogue at start (the office app's own screens: office-texts.ts). */
const added: Catalogue = {};
export function addTexts(texts: Catalogue): void {
  Object.assign(added, texts);
}

/**
 * A translator for one catalogue, falling back to English key by key; a key no catalogue holds shows
 * itself, so a missing text is noticed.
 */
export function createTranslator(catalogue: Catalogue = en): Translate {
  const english: Catalogue = en;
  return (key, params) => interpolate(catalogue[key] ?? english[key] ?? added[key] ?? key, params);
}

/** English, the only catalogue so far. */
export const t: Translate = createTranslator(en);
