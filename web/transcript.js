// The transcript beside the timeline: every message in order, pruned tool outputs marked (the model
// saw a placeholder; Postgres keeps the text), and hallucinated tool output that was stripped from
// the context shown as evidence after the reply it came from.
import { h, longText, versionOf } from './dom.js';

/** The transcript as keyed items for `keyedList`: a message is drawn again only when it changed. */
export function transcriptItems(messages, events) {
  const stripped = new Map(); // iteration → its hallucination_stripped events
  for (const e of events) if (e.type === 'hallucination_stripped') stripped.set(e.iteration, [...(stripped.get(e.iteration) ?? []), e]);
  const items = [];
  const evidenceOf = (list) => {
    for (const e of list ?? []) items.push({ key: `s${e.seq}`, version: e.seq, render: () => evidence(e) });
  };
  const sorted = [...messages].sort((a, b) => a.idx - b.idx);
  const seen = new Set(sorted.map((m) => m.iteration));
  for (const [i, m] of sorted.entries()) {
    items.push({ key: `m${m.idx}`, version: versionOf(m), render: () => message(m) });
    // evidence goes after the last message of its iteration
    const next = sorted[i + 1];
    if (m.iteration !== null && (!next || next.iteration !== m.iteration)) evidenceOf(stripped.get(m.iteration));
  }
  for (const [iteration, list] of stripped) if (!seen.has(iteration)) evidenceOf(list);
  return items;
}

function message(m) {
  return h(
    'li',
    { class: `message role-${m.role}${m.compactedAt ? ' pruned' : ''}`, dataset: { idx: m.idx } },
    h(
      'div',
      { class: 'message-head' },
      h('strong', {}, m.role),
      m.toolName ? h('span', { class: 'muted' }, ` ${m.toolName}`) : null,
      m.kind && ![m.role, 'prompt', 'tool_result'].includes(m.kind) ? h('span', { class: 'badge' }, m.kind) : null,
      m.iteration !== null && m.iteration !== undefined ? h('span', { class: 'muted' }, ` · iteration ${m.iteration}`) : null,
      m.compactedAt ? h('span', { class: 'badge pruned-badge' }, 'pruned: the model saw a placeholder') : null,
    ),
    m.content ? longText(m.content) : null,
    (m.toolCalls ?? []).map((c) =>
      h('code', { class: 'call' }, `→ ${c.function?.name ?? c.name ?? '?'}(${JSON.stringify(c.function?.arguments ?? c.arguments ?? {})})`),
    ),
  );
}

/** The reply as the model wrote it (content) — hallucinated tool output included — and what was kept (strippedText). */
function evidence(e) {
  const p = e.payload;
  return h(
    'li',
    { class: 'message stripped', dataset: { seq: e.seq } },
    h(
      'div',
      { class: 'message-head' },
      h('strong', {}, 'stripped'),
      h('span', { class: 'badge' }, `hallucinated tool output (${(p.markers ?? []).join(', ')})`),
    ),
    h('div', { class: 'muted' }, 'the model wrote (kept out of the context):'),
    longText(p.content, 600, 'text evidence'),
    p.strippedText ? [h('div', { class: 'muted' }, 'kept:'), longText(p.strippedText)] : null,
  );
}
