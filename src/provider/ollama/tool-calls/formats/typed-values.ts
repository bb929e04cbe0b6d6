// A value that a format writes as text next to its own type name (IFM's <ifm|arg_type>, Kimi K3's
// type="…", DeepSeek's string="false"): a string type keeps the text verbatim; any other type is
// decoded as JSON, and text that does not decode stays text (as the reference parsers keep it:
// a wrong type is better than a lost argument).
const STRING_TYPES = new Set(['string', 'str', 'text', 'varchar', 'char']);

export function decodeTyped(value: string, type: string | undefined): unknown {
  if (type === undefined || STRING_TYPES.has(type.toLowerCase())) return value;
  const text = value.trim();
  try {
    return JSON.parse(text);
  } catch {
    if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    return value;
  }
}
