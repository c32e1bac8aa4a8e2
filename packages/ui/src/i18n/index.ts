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

/** A translator for one catalogue, falling back to English key by key. */
export function createTranslator(catalogue: Catalogue = en): Translate {
  return (key, params) => interpolate(catalogue[key] ?? en[key], params);
}

/** English, the only catalogue so far. */
export const t: Translate = createTranslator(en);
