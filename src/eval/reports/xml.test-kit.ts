// A strict little XML parser for the JUnit tests (no XML dependency in the project): elements,
// double- or single-quoted attributes, text, CDATA, comments, the declaration and the five
// predefined plus numeric entities. It throws on anything malformed — characters XML 1.0 forbids
// (raw or as references, lone surrogates included) and `]]>` in text too — so a report that parses
// here is well-formed for the subset JUnit uses.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** the concatenated text and CDATA directly inside the element */
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** throws at the first character XML 1.0 forbids; a lone surrogate is one (iteration yields it alone) */
function checkChars(xml: string): void {
  let offset = 0;
  for (const ch of xml) {
    const cp = ch.codePointAt(0)!;
    if (!isXmlChar(cp) || (ch.length === 1 && cp >= 0xd800 && cp <= 0xdfff))
      throw new Error(`character U+${cp.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML at offset ${offset}`);
    offset += ch.length;
  }
}

function decode(s: string, at: number): string {
  return s.replace(/&([^;&<]*);|&/g, (m, name: string | undefined) => {
    if (name === undefined) throw new Error(`bare & near offset ${at}`);
    if (name in ENTITIES) return ENTITIES[name];
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (num) {
      const cp = num[1][0] === 'x' ? parseInt(num[1].slice(1), 16) : parseInt(num[1], 10);
      if (!isXmlChar(cp)) throw new Error(`reference ${m} names a character XML does not allow, near offset ${at}`);
      return String.fromCodePoint(cp);
    }
    throw new Error(`unknown entity ${m} near offset ${at}`);
  });
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const fail = (why: string): never => {
    throw new Error(`${why} at offset ${i}`);
  };
  const readName = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(xml);
    if (!m) fail('expected a name');
    i += m![0].length;
    return m![0];
  };
  const skipSpace = () => {
    while (/\s/.test(xml[i] ?? '')) i++;
  };

  checkChars(xml);
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    i = end + 2;
  }
  while (i < xml.length) {
    if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      if (end < 0 || !stack.length) fail('bad CDATA');
      stack[stack.length - 1].text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i);
      if (end < 0) fail('unterminated comment');
      i = end + 3;
    } else if (xml.startsWith('</', i)) {
      i += 2;
      const name = readName();
      skipSpace();
      if (xml[i] !== '>') fail('expected >');
      i++;
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      if (!stack.length) root = open!;
    } else if (xml[i] === '<') {
      i++;
      if (root) fail('a second root element');
      const el: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
      for (;;) {
        const before = i;
        skipSpace();
        if (xml.startsWith('/>', i) || xml[i] === '>') break;
        if (i === before) fail('expected whitespace before an attribute');
        const attr = readName();
        if (attr in el.attributes) fail(`duplicate attribute ${attr}`);
        skipSpace();
        if (xml[i] !== '=') fail('expected =');
        i++;
        skipSpace();
        const q = xml[i];
        if (q !== '"' && q !== "'") fail('expected a quoted value');
        const end = xml.indexOf(q, i + 1);
        if (end < 0) fail('unterminated attribute');
        const raw = xml.slice(i + 1, end);
        if (raw.includes('<')) fail('< in an attribute value');
        el.attributes[attr] = decode(raw, i);
        i = end + 1;
      }
      if (stack.length) stack[stack.length - 1].children.push(el);
      if (xml.startsWith('/>', i)) {
        i += 2;
        if (!stack.length) root = el;
      } else {
        i++;
        stack.push(el);
      }
    } else {
      const next = xml.indexOf('<', i);
      const raw = xml.slice(i, next < 0 ? xml.length : next);
      if (raw.includes(']]>')) fail(']]> in text');
      if (!stack.length) {
        if (raw.trim()) fail('text outside the root element');
      } else {
        stack[stack.length - 1].text += decode(raw, i);
      }
      i += raw.length;
    }
  }
  if (stack.length) fail(`<${stack[stack.length - 1].name}> is never closed`);
  if (!root) fail('no root element');
  return root!;
}

export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** the `<properties>` of an element as a name → value map, in document order */
export function propertiesOf(el: XmlElement): Array<[string, string]> {
  return childrenNamed(el, 'properties').flatMap((p) =>
    childrenNamed(p, 'property').map((x): [string, string] => [x.attributes.name, x.attributes.value]),
  );
}
