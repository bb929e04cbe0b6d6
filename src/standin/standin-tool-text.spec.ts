import { extractToolCallsFromContent } from '../provider/ollama/tool-calls';
import { parsesToolCallsNatively, renderToolCallsText, requestHasTools, toolTextFormat } from './standin-tool-text';
import { DEFAULT_STANDIN_CATALOG } from './standin-catalog';

const model = (name: string) => DEFAULT_STANDIN_CATALOG.find((m) => m.name === name)!;

describe('tool calls: native or text, per family', () => {
  it('built-in parsers (qwen3, gpt-oss) are native regardless; template families only when tools are sent', () => {
    expect(parsesToolCallsNatively(model('qwen3:8b'), false)).toBe(true);
    expect(parsesToolCallsNatively(model('gpt-oss:120b-cloud'), false)).toBe(true);
    expect(parsesToolCallsNatively(model('llama3.1:8b'), false)).toBe(false);
    expect(parsesToolCallsNatively(model('llama3.1:8b'), true)).toBe(true);
    expect(parsesToolCallsNatively({ family: 'llama', builtinToolParser: true }, false)).toBe(true);
    expect([requestHasTools(undefined), requestHasTools([]), requestHasTools([{}])]).toEqual([false, false, true]);
  });

  it('picks the text shape by name, then family', () => {
    expect(toolTextFormat(model('qwen2.5:0.5b'))).toBe('hermes');
    expect(toolTextFormat(model('llama3.1:8b'))).toBe('llama');
    expect(toolTextFormat(model('mistral:7b'))).toBe('mistral');
    expect(toolTextFormat({ name: 'x:1', family: 'llama', toolFormat: 'mistral' })).toBe('mistral');
  });

  it.each(['hermes', 'llama', 'mistral'] as const)("Loupe's extractor reads the %s text back as the same calls", (format) => {
    const calls = [
      { name: 'read_file', arguments: { path: 'a.txt' } },
      { name: 'list_dir', arguments: { path: '.' } },
    ];
    const text = renderToolCallsText(format === 'llama' ? calls.slice(0, 1) : calls, format);
    const tools = [
      { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'list_dir', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    ];
    const found = extractToolCallsFromContent(text, tools as never).calls.map((c: { name: string; arguments: unknown }) => ({
      name: c.name,
      arguments: c.arguments,
    }));
    expect(found).toEqual(format === 'llama' ? calls.slice(0, 1) : calls);
  });
});
