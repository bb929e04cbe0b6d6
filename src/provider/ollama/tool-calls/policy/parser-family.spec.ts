import { extractToolCallsFromContent } from '../extract-tool-calls';
import { fixedIds, TOOLS } from '../extraction.test-kit';
import { parserFamilyOf } from './parser-family';
import type { ExtractOptions } from '../types';

function read(content: string, options: ExtractOptions) {
  const r = extractToolCallsFromContent(content, TOOLS, { generateId: fixedIds(), ...options });
  return {
    calls: r.calls.map((c) => [c.name, c.arguments]),
    repairs: r.repairs.map((x) => x.kind),
    dropped: (r.dropped ?? []).map((d) => ({ name: d.name, reason: d.reason, detail: d.detail })),
  };
}

const OPEN = ['open_page', { url: 'a' }];
const CALL = '{"name": "open_page", "arguments": {"url": "a"}}';

describe('the family a model is read by', () => {
  it.each([
    ['rwkv7-g1:2.9b', 'rwkv'],
    ['hf.co/mradermacher/RWKV7-Goose-World3-2.9B-GGUF:Q4_K_M', 'rwkv'],
    ['openpangu-embedded-7b', 'openpangu'],
    ['hf.co/FreedomIntelligence/openPangu-Ultra-MoE-718B-V1.1:Q4_K_M', 'openpangu'],
    ['lfm2:1.2b', undefined],
    ['qwen3:8b', undefined],
    ['', undefined],
  ])('%s → %s', (model, family) => {
    expect(parserFamilyOf(model)).toBe(family);
  });

  describe('openPangu, which writes LFM2 tokens around a JSON list', () => {
    const single = `<|tool_call_start|>${CALL}<|tool_call_end|>`;
    const unclosedList = `<|tool_call_start|>[${CALL}<|tool_call_end|>`;

    it('reads a whole list under strict', () => {
      expect(read(`<|tool_call_start|>[${CALL}]<|tool_call_end|>`, { policy: 'strict', model: 'openpangu-7b' }).calls).toEqual([OPEN]);
    });

    it.each([
      ['a single call object', single],
      ['a list missing its closing bracket', unclosedList],
    ])('drops %s under strict, with the reason', (_label, content) => {
      expect(read(content, { policy: 'strict', model: 'openpangu-7b' })).toEqual({
        calls: [],
        repairs: [],
        dropped: [
          { name: 'open_page', reason: 'strict_rejected', detail: expect.stringMatching(/^openPangu reads only a whole JSON list/) },
        ],
      });
      // the family named outright reads the same
      expect(read(content, { policy: 'strict', family: 'openpangu' }).calls).toEqual([]);
    });

    it('reads them under lenient and records the repair', () => {
      for (const content of [single, unclosedList]) {
        const r = read(content, { model: 'openpangu-7b' });
        expect(r.calls).toEqual([OPEN]);
        expect(r.repairs).toEqual(['call_repaired']);
      }
    });

    it('leaves LFM2 (and an unknown model) reading a single object as a call', () => {
      expect(read(single, { policy: 'strict', model: 'lfm2:1.2b' }).calls).toEqual([OPEN]);
      expect(read(single, { policy: 'strict' }).calls).toEqual([OPEN]);
    });
  });

  describe('RWKV, whose parser reads a bare ```json fence', () => {
    const bare = `I will open it.\n\`\`\`json\n${CALL}\n\`\`\``;

    it('reads a fence holding a declared call under strict', () => {
      expect(read(bare, { policy: 'strict', model: 'rwkv7-g1' })).toEqual({ calls: [OPEN], repairs: [], dropped: [] });
    });

    it('reads no such fence for another model under strict', () => {
      expect(read(bare, { policy: 'strict', model: 'qwen3:8b' })).toEqual({
        calls: [],
        repairs: [],
        dropped: [{ name: 'open_page', reason: 'strict_rejected', detail: 'a bare JSON call that does not open the reply' }],
      });
    });

    it.each([
      ['a fence of another language', `Run:\n\`\`\`bash\n${CALL}\n\`\`\``],
      ['a fence holding more than the call', `Run:\n\`\`\`json\n${CALL}\nmore\n\`\`\``],
      [
        'a bare fence in a reply that also writes the **Tool Call:** label',
        `**Tool Call:**\n\`\`\`json\n{"name": "nope"}\n\`\`\`\n${bare}`,
      ],
    ])('reads no call from %s', (_label, content) => {
      expect(read(content, { policy: 'strict', family: 'rwkv' }).calls).toEqual([]);
    });
  });
});
