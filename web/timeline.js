// A session's loop as a timeline: its journal events grouped by iteration, tool calls joined with
// their results and approvals (status, duration, wait), slot waits with their durations, and every
// other event as an entry coloured by its kind from the catalogue (nudges, breaks, trims, prunes,
// compactions, retries…). Each iteration's head carries its figures from the iteration row: tokens
// in/out, time to first token, prefill, decode, load, slot wait, and a link to its trace.
// Event names used here are checked against the vocabulary by a test.
import { fmtMs, h, versionOf } from './dom.js';

const is = (e, type) => e.type === type;

/**
 * events (in seq order) → [{ key, iteration, started, finished, request, entries, seq }]: `seq` is the
 * last event that changed the group (its own, or a result joined to one of its calls), so a page can
 * draw again only the groups that changed.
 */
export function buildTimeline(events, catalogue) {
  // numbered iterations group by number; events outside an iteration group with their neighbours
  const groups = [];
  const byIteration = new Map();
  const tools = new Map();
  let slot;
  const groupOf = (e) => {
    const last = groups.at(-1);
    if (e.iteration === null || e.iteration === undefined) {
      if (last && last.iteration === null) return last;
      groups.push({ key: `s${e.seq}`, iteration: null, entries: [] });
      return groups.at(-1);
    }
    let g = byIteration.get(e.iteration);
    if (!g) {
      byIteration.set(e.iteration, (g = { key: `i${e.iteration}`, iteration: e.iteration, entries: [] }));
      groups.push(g);
    }
    return g;
  };
  const owner = new Map(); // a joined entry (tool call, slot wait) → its group
  const touch = (x, seq) => owner.has(x) && (owner.get(x).seq = seq);
  for (const e of events) {
    const g = groupOf(e);
    g.seq = e.seq;
    const p = e.payload ?? {};
    if (is(e, 'iteration_started')) g.started = e;
    else if (is(e, 'iteration_finished')) g.finished = e;
    else if (is(e, 'inference_request')) g.request ??= e;
    else if (is(e, 'tool_call')) {
      const t = { kind: 'tool', seq: e.seq, id: p.id, name: p.name, args: p.arguments, status: 'running' };
      tools.set(p.id, t);
      owner.set(t, g);
      g.entries.push(t);
    } else if ((is(e, 'tool_result') || is(e, 'tool_error')) && tools.has(p.id)) {
      Object.assign(tools.get(p.id), { status: p.status, durationMs: p.durationMs, error: p.error, chars: p.chars });
      touch(tools.get(p.id), e.seq);
    } else if (is(e, 'tool_result_capped') && tools.has(p.id)) {
      tools.get(p.id).capped = p;
      touch(tools.get(p.id), e.seq);
    } else if (is(e, 'approval_requested') && tools.has(p.callId)) {
      Object.assign(tools.get(p.callId), { approval: 'pending', queue: `${p.queuePosition}/${p.totalInQueue}` });
      touch(tools.get(p.callId), e.seq);
    } else if (is(e, 'approval_decided') && tools.has(p.callId)) {
      Object.assign(tools.get(p.callId), { approval: p.decision, approvalBy: p.by, waitedMs: p.waitedMs });
      touch(tools.get(p.callId), e.seq);
    } else if (is(e, 'slot_wait_started')) {
      slot = { kind: 'slot', seq: e.seq, model: p.model, waiting: true };
      owner.set(slot, g);
      g.entries.push(slot);
    } else if (is(e, 'slot_status') && slot) {
      slot.position = `${p.queuePosition}/${p.queueLength}`;
      touch(slot, e.seq);
    } else if (is(e, 'slot_acquired') && slot) {
      Object.assign(slot, { waiting: false, waitMs: p.waitMs });
      touch(slot, e.seq);
      g.slotWaitMs = (g.slotWaitMs ?? 0) + (p.waitMs ?? 0);
    } else g.entries.push({ kind: catalogue.get(e.type)?.kind ?? 'unknown', seq: e.seq, event: e });
  }
  return groups;
}

const SKIP = new Set(['slot_released']);

/** the scalar fields of a payload, short: `reason: promisedAction · count: 2` */
export function summarize(payload) {
  const parts = [];
  for (const [k, v] of Object.entries(payload ?? {})) {
    if (v === null || v === undefined || (typeof v === 'object' && !Array.isArray(v))) continue;
    if (Array.isArray(v)) parts.push(`${k}: ${v.length}`);
    else if (typeof v === 'string' && v.length > 80) parts.push(`${k}: ${v.slice(0, 77)}…`);
    else parts.push(`${k}: ${v}`);
    if (parts.length >= 6) break;
  }
  return parts.join(' · ');
}

function toolEntry(t) {
  const approval =
    t.approval === 'pending'
      ? h('span', { class: 'badge approval-pending' }, `waiting for approval (${t.queue})`)
      : t.approval
        ? h('span', { class: `badge approval-${t.approval}` }, `${t.approval} by ${t.approvalBy} after ${fmtMs(t.waitedMs)}`)
        : null;
  return h(
    'li',
    { class: `entry kind-tool tool-${t.status}`, dataset: { kind: 'tool', callId: t.id } },
    h('span', { class: 'label' }, 'tool'),
    h('strong', {}, t.name),
    h('code', { class: 'args' }, JSON.stringify(t.args ?? {}).slice(0, 160)),
    h('span', { class: `badge status-${t.status}` }, t.status),
    t.durationMs !== undefined ? h('span', { class: 'duration' }, fmtMs(t.durationMs)) : null,
    approval,
    t.capped ? h('span', { class: 'badge' }, `capped ${t.capped.keptChars}/${t.capped.originalChars} chars`) : null,
    t.error ? h('div', { class: 'error-text' }, t.error.slice(0, 300)) : null,
  );
}

function entry(x, catalogue) {
  // joined entries (a call with its result, a slot wait with its grant) carry no single event
  if (x.kind === 'tool' && !x.event) return toolEntry(x);
  if (x.kind === 'slot' && !x.event)
    return h(
      'li',
      { class: 'entry kind-slot', dataset: { kind: 'slot' } },
      h('span', { class: 'label' }, 'slot'),
      x.waiting ? `waiting for a slot${x.position ? ` (queue ${x.position})` : ''}` : `slot acquired after ${fmtMs(x.waitMs)}`,
    );
  const e = x.event;
  if (SKIP.has(e.type)) return null;
  const about = catalogue.get(e.type);
  return h(
    'li',
    { class: `entry kind-${x.kind}`, title: about?.description ?? '', dataset: { kind: x.kind, type: e.type } },
    h('span', { class: 'label' }, x.kind),
    h('strong', {}, e.type),
    h('span', { class: 'summary' }, summarize(e.payload)),
  );
}

const num = (n) => (n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US'));

/** tokens in/out, first token, prefill, decode, load, queueing and the trace link of one iteration (the session's slot wait is in its header) */
function figures(row, slotWaitMs) {
  if (!row && slotWaitMs === undefined) return null;
  const fig = (name, label, value, title) =>
    h('span', { class: 'figure', dataset: { figure: name }, title }, h('span', { class: 'muted' }, `${label} `), value);
  return h(
    'div',
    { class: 'iteration-figures' },
    row
      ? fig('tokens', 'tokens', `${num(row.inputTokens)} in / ${num(row.outputTokens)} out`, 'prompt tokens read / tokens written')
      : null,
    row ? fig('first-token', 'first token', fmtMs(row.firstTokenMs), 'from the request to the first streamed piece') : null,
    row ? fig('prefill', 'prefill', fmtMs(row.prefillMs), "the server's prompt evaluation") : null,
    row ? fig('decode', 'decode', fmtMs(row.decodeMs), "the server's generation") : null,
    row?.loadMs ? fig('load', 'load', fmtMs(row.loadMs), 'the model was loaded for this call') : null,
    row ? fig('queue', 'server queue', fmtMs(row.serverQueueMs ?? 0), "waiting in the Ollama server's queue before prefill") : null,
    slotWaitMs !== undefined ? fig('slot-wait', 'slot wait', fmtMs(slotWaitMs), "waiting for Loupe's inference slot on the host") : null,
    row?.traceUrl
      ? h('a', { class: 'trace-link', href: row.traceUrl, target: '_blank', rel: 'noopener', dataset: { figure: 'trace' } }, 'trace ↗')
      : null,
  );
}

/** The groups as keyed items for `keyedList`: a group is drawn again only when an event or its iteration row changed it. */
export function timelineItems(groups, catalogue, iterations = new Map()) {
  return groups.map((g) => {
    const row = g.iteration === null || g.iteration === undefined ? undefined : iterations.get(g.iteration);
    return { key: g.key, version: `${g.seq}|${versionOf(row)}`, render: () => renderGroup(g, catalogue, row) };
  });
}

/** One iteration (or the events between iterations): its head, its figures and its entries. */
function renderGroup(g, catalogue, row) {
  const took = g.started && g.finished ? new Date(g.finished.createdAt) - new Date(g.started.createdAt) : null;
  const req = g.request?.payload;
  const numbered = g.iteration !== null && g.iteration !== undefined;
  return h(
    'li',
    { class: `iteration${g.finished ? '' : ' open'}`, dataset: { iteration: g.iteration ?? 'session' } },
    h(
      'div',
      { class: 'iteration-head' },
      h('strong', {}, numbered ? `Iteration ${g.iteration}` : 'Session'),
      g.started?.payload?.purpose && g.started.payload.purpose !== 'step' ? h('span', { class: 'badge' }, g.started.payload.purpose) : null,
      req ? h('span', { class: 'muted' }, `${req.mode} · ${req.toolCount} tools · ${req.messageCount} messages`) : null,
      g.finished
        ? h('span', { class: `badge outcome` }, g.finished.payload.outcome)
        : g.started
          ? h('span', { class: 'badge' }, 'running')
          : null,
      took !== null ? h('span', { class: 'duration' }, fmtMs(took)) : null,
    ),
    numbered ? figures(row, g.slotWaitMs) : null,
    h(
      'ul',
      { class: 'entries' },
      g.entries.map((x) => entry(x, catalogue)),
    ),
  );
}
