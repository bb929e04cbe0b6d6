// A small XML writer for the JUnit report: elements, attributes and escaped text only. No CDATA —
// a section ends at the first `]]>`, so text from models and tools goes escaped instead — and no
// character XML 1.0 forbids (C0 controls but tab, newline and return; U+FFFE, U+FFFF; lone
// surrogates): each becomes U+FFFD, so whatever a trial recorded the report stays well-formed. Pure.

export interface XmlNode {
  name: string;
  /** in document order */
  attributes?: Array<[string, string]>;
  children?: XmlNode[];
  /** text content (an element has text or children) */
  text?: string;
}

// Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] (XML 1.0, 2.2)
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** the text with every character XML 1.0 cannot hold replaced by U+FFFD */
export function xmlChars(s: string): string {
  return s.replace(FORBIDDEN, '\ufffd');
}

/** text content: markup escaped (`>` too, so `]]>` cannot appear), a return kept as a reference (parsers fold a raw one into a newline) */
export function escapeText(s: string): string {
  return xmlChars(s).replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c]!);
}

/** an attribute value in double quotes: also quotes, and tabs and line breaks as references (parsers fold raw ones into spaces) */
export function escapeAttribute(s: string): string {
  return xmlChars(s).replace(
    /[&<>"\t\n\r]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c]!,
  );
}

function render(node: XmlNode, indent: string, out: string[]): void {
  const attrs = (node.attributes ?? []).map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`).join('');
  const children = node.children ?? [];
  if (children.length) {
    out.push(`${indent}<${node.name}${attrs}>`);
    for (const c of children) render(c, `${indent}  `, out);
    out.push(`${indent}</${node.name}>`);
  } else if (node.text) out.push(`${indent}<${node.name}${attrs}>${escapeText(node.text)}</${node.name}>`);
  else out.push(`${indent}<${node.name}${attrs}/>`);
}

/** the document: the declaration and the root element, indented two spaces a level */
export function renderXml(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, '', out);
  return out.join('\n');
}
