// A small, forgiving XML tag scanner for MTConnect documents (the agent's /probe, /current and /sample
// answers). MTConnect documents are flat and well known, so start tags, end tags and text are all we need;
// a general XML library would be a new dependency for that. Never throws: broken markup is skipped.

export type XmlAttributes = Record<string, string>;

export interface XmlHandlers {
  /** a start tag; `selfClosing` tags get no close() call */
  open(name: string, attributes: XmlAttributes, selfClosing: boolean): void;
  close(name: string): void;
  /** character data between tags, entities decoded (CDATA verbatim) */
  text(text: string): void;
}

// comment | CDATA | <?…?> or <!…> | end tag | start tag | text | a stray '<'
const MARKUP =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<[?!][^>]*>|<\/\s*([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|</g;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Walks the document, calling the handlers in order. Element and attribute names lose their prefix. */
export function scanXml(xml: string, handlers: XmlHandlers): void {
  for (const m of xml.matchAll(MARKUP)) {
    const [, cdata, endTag, startTag, attributeText = '', selfClosing, text] = m;
    if (startTag) handlers.open(localName(startTag), parseAttributes(attributeText), selfClosing === '/');
    else if (endTag) handlers.close(localName(endTag));
    else if (cdata !== undefined) handlers.text(cdata);
    else if (text !== undefined) handlers.text(decodeEntities(text));
  }
}

export function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

function parseAttributes(text: string): XmlAttributes {
  const attributes: XmlAttributes = {};
  for (const m of text.matchAll(ATTRIBUTE)) {
    attributes[localName(m[1] ?? '')] = decodeEntities(m[2] ?? m[3] ?? '');
  }
  return attributes;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const code =
        entity[1] === 'x' || entity[1] === 'X'
          ? parseInt(entity.slice(2), 16)
          : parseInt(entity.slice(1), 10);
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity] ?? whole;
  });
}
