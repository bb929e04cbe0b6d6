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

/**
 * A list kept in step with its data: `update(items, until)` with items `{ key, version, render }` in
 * order renders an item only when it is new or its version changed, and moves or removes nothing
 * that stayed in place — so a list that grows costs only its new items. New items are built off the
 * document and go in together. Past `until` (a performance.now() time) it stops rendering and
 * returns false, leaving the rest as it was: call it again (after a frame) to go on.
 */
export function keyedList(list) {
  let held = new Map(); // key → { version, el }
  return (items, until = Infinity) => {
    const next = new Map();
    let at = list.firstChild;
    let batch = null; // new elements waiting to go in before `at`
    const flush = () => {
      if (batch) list.insertBefore(batch, at);
      batch = null;
    };
    let done = true;
    for (const { key, version, render } of items) {
      const old = held.get(key);
      const same = old && old.version === version;
      if (!same && performance.now() > until) {
        done = false;
        break;
      }
      const el = same ? old.el : render();
      next.set(key, { version, el });
      if (el === at) {
        flush();
        at = at.nextSibling;
        continue;
      }
      if (old && old.el !== el && old.el === at) at = at.nextSibling; // replaced in place: the old one goes below
      (batch ??= document.createDocumentFragment()).append(el);
    }
    flush();
    if (!done) {
      // what is not reached yet stays as it was, for the next call
      for (const [key, x] of held) if (!next.has(key)) next.set(key, x);
    } else for (const [key, { el }] of held) if (next.get(key)?.el !== el) el.remove();
    held = next;
    return done;
  };
}

/** A cheap version for a row: its JSON, computed once per object. */
const versions = new WeakMap();
export function versionOf(row) {
  if (!row || typeof row !== 'object') return String(row);
  let v = versions.get(row);
  if (v === undefined) versions.set(row, (v = JSON.stringify(row)));
  return v;
}
