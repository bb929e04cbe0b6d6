// Small DOM helpers: elements are built with text nodes only (never innerHTML), so nothing a model
// or a tool wrote can become markup.

/** h('div', { class: 'x', onclick }, child, 'text', [more]) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

export function fmtMs(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function fmtTime(iso) {
  return iso ? new Date(iso).toLocaleString() : '–';
}

export function fmtPct(rate) {
  return rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(0)}%`;
}

/** A long text folded into <details> past `max` characters. */
export function longText(text, max = 600, cls = 'text') {
  const s = String(text ?? '');
  if (s.length <= max) return h('pre', { class: cls }, s);
  return h('details', { class: 'long' }, h('summary', {}, h('pre', { class: cls }, `${s.slice(0, max)}…`)), h('pre', { class: cls }, s));
}
