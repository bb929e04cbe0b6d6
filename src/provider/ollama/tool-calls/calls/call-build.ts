// Turns what the scanners read into the calls the loop runs: names resolved against the declared
// tools (an explicit call to a tool that is not declared, not even closely, is recorded, and dropped
// or passed on under the name as written — never run under a guessed name), positional and plain-text arguments placed on the
// tool's parameters, text values decoded as their format writes them, keys repaired and values
// typed by the schema. Every repair is reported with the index of its call.
import type { LlmToolCall, LlmToolDefinition } from '../../../llm-types';
import { coerceArgsToSchema, needsNoCoercion } from '../arguments/arg-coercion';
import { keysNeedNoMapping, normalizeToolArgsWithRepairs } from '../arguments/arg-normalization';
import { pushAll } from '../scan/collections';
import { PSEUDO_JSON, readTolerantly } from './json-calls';
import type { ToolResolver } from '../names/name-resolution';
import { decodeTextValues } from '../arguments/text-values';
import type { CallSpan, DroppedCall, ExtractionPolicy, ExtractionRepair, ExtractionStrategy, RawCall } from '../types';

export interface BuiltCalls {
  calls: LlmToolCall[];
  strategies: ExtractionStrategy[];
  repairs: ExtractionRepair[];
  dropped: DroppedCall[];
  /** blocks strict extraction refused every call of: their text stays, as the reference parser leaves it */
  refused?: Set<CallSpan>;
}

/** an empty list shared by every call without one (only read) */
const NONE: readonly never[] = [];

/**
 * A closed explicit block is a call. A block the output cut off (no closing marker) is trusted
 * only when it names a declared tool and carries the arguments that tool requires: otherwise it
 * is probably half a call.
 */
export function acceptExplicit(span: CallSpan, resolver: ToolResolver): boolean {
  if (span.calls.length === 0 || span.closed || resolver.tools.length === 0) return true;
  // plain loops: this runs once per unclosed call, and a hostile reply holds tens of thousands
  for (const call of span.calls) {
    const found = resolver.resolve(call.name);
    if (!found) return false;
    const tool = resolver.tool(found.name);
    const required = tool?.parameters?.required ?? NONE;
    if (Array.isArray(required) && required.length === 0) continue;
    const raw = argumentsOf(call, tool);
    // every required key already a parameter: key repair never moves one, so nothing to normalise
    if (holdsAll(raw, required, tool?.parameters?.properties)) continue;
    const args = normalizeToolArgsWithRepairs(raw, tool).args;
    if (!required.every((key) => key in args)) return false;
  }
  return true;
}

export function buildCalls(
  spans: readonly CallSpan[],
  resolver: ToolResolver,
  generateId: () => string,
  unknownTools: 'drop' | 'pass' = 'drop',
  policy: ExtractionPolicy = 'lenient',
): BuiltCalls {
  const strict = policy === 'strict';
  const out: BuiltCalls = { calls: [], strategies: [], repairs: [], dropped: [] };
  const hasTools = resolver.tools.length > 0;
  // only a reply with both kinds of call needs the echo check below
  const mixed = holdsBothKinds(spans);
  let explicitKeys: Set<string> | undefined;
  let rejected: Set<CallSpan> | undefined;
  // only strict extraction refuses calls, so only it needs to know which blocks kept one
  const kept = strict ? new Set<CallSpan>() : undefined;
  for (const span of spans) {
    for (const raw of span.calls) {
      const resolved = resolver.resolve(raw.name);
      // arguments the tolerant parser read (pseudo-JSON) are a repair too, whichever scanner read them
      const irregular = raw.irregular ?? (readTolerantly(raw.arguments) ? `arguments ${PSEUDO_JSON}` : undefined);
      // strict repairs no name: a reference parser passes the name on as written
      const found = strict && resolved && resolved.how !== 'exact' ? undefined : resolved;
      if (strict && irregular !== undefined) {
        if (span.explicit || found)
          out.dropped.push({
            name: raw.name,
            arguments: raw.arguments,
            strategy: span.strategy,
            reason: 'strict_rejected',
            detail: irregular,
          });
        (rejected ??= new Set()).add(span);
        continue;
      }
      if (!found) {
        if (!span.explicit) continue;
        if (hasTools) {
          const dropped: DroppedCall = { name: raw.name, arguments: raw.arguments, strategy: span.strategy, reason: 'unknown_tool' };
          if (resolved) dropped.detail = `not a declared tool (lenient reads it as ${resolved.name})`;
          out.dropped.push(dropped);
          if (unknownTools === 'drop') continue;
        }
      }
      const name = found?.name ?? raw.name;
      const tool = found ? resolver.tool(found.name) : undefined;
      const callIndex = out.calls.length;
      // without the echo check below every built call is kept: its repairs go straight to the result
      let repairs: ExtractionRepair[] | undefined = mixed ? undefined : out.repairs;
      if (found && found.how !== 'exact')
        (repairs ??= []).push({ kind: 'tool_name_repaired', callIndex, from: raw.name, to: name, how: found.how });
      if (irregular !== undefined) (repairs ??= []).push({ kind: 'call_repaired', callIndex, detail: irregular });
      let args = decodeTextValues(argumentsOf(raw, tool), raw.textValues, tool?.parameters);
      if (tool && hasKeys(args)) {
        // strict renames no key either: the reference parser hands the arguments on as written
        if (!strict && !keysNeedNoMapping(args, tool)) {
          const normalized = normalizeToolArgsWithRepairs(args, tool);
          for (const m of normalized.mappings) (repairs ??= []).push({ kind: 'tool_args_normalized', callIndex, from: m.from, to: m.to });
          args = normalized.args;
        }
        // the usual case (values already of their types) allocates nothing
        if (!needsNoCoercion(args, tool.parameters)) {
          const coerced = coerceArgsToSchema(args, tool.parameters);
          for (const c of coerced.coercions) (repairs ??= []).push({ kind: 'arg_coerced', callIndex, key: c.key, from: c.from, to: c.to });
          args = coerced.args;
        }
      }
      // a bare JSON echo of a call already made with markers is the same call, not a second one
      if (mixed) {
        const key = `${name}\u0000${JSON.stringify(args)}`;
        if (span.explicit) (explicitKeys ??= new Set()).add(key);
        else if (explicitKeys?.has(key)) continue;
      }
      out.calls.push({ id: generateId(), name, arguments: args });
      kept?.add(span);
      if (repairs && repairs !== out.repairs) pushAll(out.repairs, repairs);
      if (span.strategy && !out.strategies.includes(span.strategy)) out.strategies.push(span.strategy);
    }
  }
  if (rejected) out.refused = new Set([...rejected].filter((s) => !kept?.has(s)));
  return out;
}

/** The call's arguments with positional values and plain-text input placed on the tool's parameters. */
function argumentsOf(raw: RawCall, tool: LlmToolDefinition | undefined): Record<string, unknown> {
  const positional = raw.positional ?? NONE;
  if (positional.length === 0 && raw.inputText === undefined) return raw.arguments; // scanners build fresh objects
  const args: Record<string, unknown> = { ...raw.arguments };
  const params = Object.keys(tool?.parameters?.properties ?? {});
  if (positional.length === 1 && isPlainObject(positional[0]) && Object.keys(args).length === 0) {
    return { ...(positional[0] as Record<string, unknown>) }; // name({"k": "v"})
  }
  positional.forEach((value, i) => {
    const key = params[i] !== undefined && !(params[i] in args) ? params[i] : `arg${i}`;
    args[key] = value;
  });
  if (raw.inputText !== undefined && Object.keys(args).length === 0) {
    const required = tool?.parameters?.required ?? [];
    const target = params.length === 1 ? params[0] : required.length === 1 ? required[0] : 'input';
    args[target] = raw.inputText;
  }
  return args;
}

/** Whether some spans with calls are explicit and some loose (one pass, no closure). */
function holdsBothKinds(spans: readonly CallSpan[]): boolean {
  let explicit = false;
  let loose = false;
  for (const s of spans) {
    if (s.calls.length === 0) continue;
    if (s.explicit) explicit = true;
    else loose = true;
    if (explicit && loose) return true;
  }
  return false;
}

/** Whether every key of `required` is in `args` and a declared parameter (which key repair leaves in place). */
function holdsAll(args: Record<string, unknown>, required: unknown, props: Record<string, unknown> | undefined): boolean {
  if (!Array.isArray(required) || !props || typeof props !== 'object') return false;
  for (const key of required) {
    if (typeof key !== 'string' || !(key in args) || !Object.prototype.hasOwnProperty.call(props, key)) return false;
  }
  return true;
}

function hasKeys(args: Record<string, unknown>): boolean {
  for (const key in args) if (key !== undefined) return true;
  return false;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
