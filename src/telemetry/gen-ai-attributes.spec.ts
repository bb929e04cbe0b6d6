// The names we emit are the registry's: each GEN_AI name is an attribute exported by the installed
// @opentelemetry/semantic-conventions (1.45), whose gen_ai.* entries are frozen at v1.41 (the last
// release before the GenAI conventions moved to their own repository), and each operation name is one
// of its well-known values. A typo or a name from a later proposal fails here.
import { GEN_AI, GEN_AI_OPERATION, LOUPE_ATTR, SPAN_NAMES } from './gen-ai-attributes';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the incubating entry point is read as data, not imported for use
const registry = require('@opentelemetry/semantic-conventions/incubating') as Record<string, unknown>;

const attrConstant = (name: string) => `ATTR_${name.toUpperCase().replace(/\./g, '_')}`;

describe('GenAI names (semconv v1.41)', () => {
  it.each(Object.values(GEN_AI))('%s is a registered attribute', (name) => {
    expect(registry[attrConstant(name)]).toBe(name);
  });

  it.each(Object.values(GEN_AI_OPERATION))('operation %s is a well-known gen_ai.operation.name value', (op) => {
    expect(registry[`GEN_AI_OPERATION_NAME_VALUE_${op.toUpperCase()}`]).toBe(op);
  });

  it('names spans {operation} {target} as the conventions ask', () => {
    expect(SPAN_NAMES.chat('qwen3:8b')).toBe('chat qwen3:8b');
    expect(SPAN_NAMES.invokeAgent('loupe')).toBe('invoke_agent loupe');
    expect(SPAN_NAMES.executeTool('read_file')).toBe('execute_tool read_file');
  });

  it('keeps harness fields out of the gen_ai namespace', () => {
    for (const name of Object.values(LOUPE_ATTR)) expect(name).toMatch(/^loupe\./);
  });
});
