// Text tool-call extraction cost: throughput on a mix of realistic replies (the formats local
// models print most, plus plain prose and code — kept as it was so figures compare across
// versions), on a second mix of the newer formats, and the time it takes on 1 MB inputs built to
// make a naive parser quadratic, and how time grows with input size (10 KB to 10 MB, which must stay
// linear). Medians over repeated runs after a warm-up. Everything is generated here; nothing is
// read from disk.

import { performance } from 'node:perf_hooks';
import type { LlmToolDefinition } from '../src/provider/llm-types';
import { extractToolCallsFromContent, type ExtractionPolicy } from '../src/provider/ollama/tool-calls';
import type { BenchFigure } from './run-benchmarks';

export type { BenchFigure };

export interface ExtractionBenchOptions {
  /** repetitions per throughput figure (the median is reported) */
  runs?: number;
  /** repetitions per worst-case figure */
  worstCaseRuns?: number;
  /** minimum wall time of one throughput run, in ms */
  minRunMs?: number;
  /** the sizes of the linearity figures, in bytes (default 10 KB, 100 KB, 1 MB, 10 MB) */
  scalingSizes?: number[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const tool = (name: string, props: Record<string, string>, required: string[] = []): LlmToolDefinition => ({
  name,
  description: `bench tool ${name}`,
  parameters: { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, t]) => [k, { type: t }])), required },
});

export const TOOLS: LlmToolDefinition[] = [
  tool('read_file', { path: 'string' }, ['path']),
  tool('write_file', { path: 'string', content: 'string' }, ['path', 'content']),
  tool('run_command', { command: 'string', timeout: 'integer' }, ['command']),
  tool('list_files', { path: 'string', recursive: 'boolean' }),
  tool('search_code', { pattern: 'string', max_results: 'integer' }, ['pattern']),
];

const PROSE =
  'The build failed because the configuration loader reads the environment before the defaults are applied, ' +
  "so a missing variable turns into an empty string rather than the documented default. I'd move the defaults " +
  'into the schema (see [the notes] above) and validate once at start-up; that keeps every later read typed. ';

const CODE =
  '```ts\nexport function loadConfig(env: Record<string, string | undefined>): Config {\n' +
  "  const port = Number(env.PORT ?? '8080');\n  if (!Number.isFinite(port)) throw new Error(`bad port: ${env.PORT}`);\n" +
  "  return { port, host: env.HOST ?? '127.0.0.1', tags: [...(env.TAGS ?? '').split(',')] };\n}\n```\n";

/** One reply per format local models print, plus replies without calls. */
export function realisticReplies(): string[] {
  const content = 'export const answer = 42;\\nexport const question = \\"unknown\\";\\n';
  return [
    PROSE,
    PROSE + CODE + PROSE,
    `I'll read it first.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/config.ts"}}\n</tool_call>`,
    `<think>The user wants the tests run. ${PROSE}</think>\n<tool_call>\n{"name": "run_command", "arguments": {"command": "npm test", "timeout": "120"}}\n</tool_call>`,
    `[TOOL_CALLS][{"name": "list_files", "arguments": {"path": "src", "recursive": true}}, {"name": "read_file", "arguments": {"path": "package.json"}}]`,
    `[TOOL_CALLS]write_file[ARGS]{"path": "src/answer.ts", "content": "${content}"}`,
    `<|python_tag|>search_code(pattern="loadConfig", max_results=20)<|eom_id|>`,
    `[read_file(path="README.md"), list_files(path=".")]`,
    `<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/answer.ts\n</parameter>\n<parameter=content>\nexport const answer = 42;\n</parameter>\n</function>\n</tool_call>`,
    `<tool_call>search_code\n<arg_key>pattern</arg_key>\n<arg_value>TODO</arg_value>\n</tool_call>`,
    `Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path": "src/main.ts"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    `<|tool_calls_section_begin|><|tool_call_begin|>functions.run_command:0<|tool_call_argument_begin|>{"command": "git status"}<|tool_call_end|><|tool_calls_section_end|>`,
    `<|channel|>analysis<|message|>Need the file list.<|end|><|start|>assistant<|channel|>commentary to=functions.list_files <|constrain|>json<|message|>{"path": "."}<|call|>`,
    `<|tool_call>call:search_code{pattern:<|"|>fixme<|"|>,max_results:5}<tool_call|>`,
    `Thought: I should look at the entry point.\nAction: read_file\nAction Input: {"path": "src/main.ts"}`,
    `Here is the call:\n\`\`\`json\n{"name": "run_command", "arguments": {"cmd": "ls -la"}}\n\`\`\``,
    `{"name": "read_file", "parameters": {"file_path": "docs/setup.md"}}`,
    `read_file\n{"path": "tsconfig.json"}`,
    `${PROSE}\nwrite_file(path="notes.md", content="${content}")`,
    `${PROSE}${PROSE}The JSON you asked about looks like {"name": "Alice", "roles": ["admin", "dev"]} and is fine.`,
  ];
}

/** One reply per format added later (Step-3, Seed-OSS, MiniMax-M2, Apertus, Functionary, …). */
export function newerFormatReplies(): string[] {
  return [
    `Reading it.<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="read_file"><steptml:parameter name="path">src/main.ts</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`,
    `<seed:think>${PROSE}</seed:think>\n<seed:tool_call>\n<function=run_command>\n<parameter=command>\nnpm test\n</parameter>\n<parameter=timeout>\n120\n</parameter>\n</function>\n</seed:tool_call>`,
    `<think>List first.</think>\n<minimax:tool_call>\n<invoke name="list_files">\n<parameter name="path">src</parameter>\n<parameter name="recursive">true</parameter>\n</invoke>\n</minimax:tool_call>`,
    `<|inner_prefix|>Need the config.<|inner_suffix|>Checking.<|tools_prefix|>[{"read_file": {"path": "tsconfig.json"}}, {"search_code": {"pattern": "loadConfig"}}]<|tools_suffix|>`,
    `all\nLet me search first.>>>search_code\n{"pattern": "TODO", "max_results": 5}`,
    `<function=write_file>{"path": "notes.md", "content": "# Notes"}</function>\n<|python_tag|>print(open("notes.md").read())`,
    `<｜tool calls begin｜><｜tool call begin｜>run_command<｜tool sep｜>\`\`\`json\n{"command": "git log -1"}\n\`\`\`<｜tool call end｜><｜tool calls end｜>`,
    ` to=functions.search_code<|channel|>commentary json<|message|>{"pattern": "fixme"}<|call|>`,
    `<function name="list_files">{"path": "docs"}</function>`,
    `<tool_call>search_code\n<arg_key>pattern</arg_key>\n<arg_value>loadConfig</arg_value>\n<arg_key>max_results</arg_key>\n<arg_value>10</arg_value>\n</tool_call>`,
    `${PROSE}Let me look: [read_file(path="src/config.ts")] and then I will explain.`,
    `<｜DSML｜function_calls>\n<｜DSML｜invoke name="run_command">\n<｜DSML｜parameter name="command" string="true">ls</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`,
  ];
}

/** 1 MB inputs aimed at the usual ways a tool-call parser goes quadratic or recurses too deep. */
export function adversarialInputs(MB = 1 << 20): Array<[string, string]> {
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  return [
    ['open objects {"name":', fill('{"name":')],
    ['open brackets [[[[', fill('[[[[')],
    ['repeated <tool_call>', fill('<tool_call>')],
    ['unterminated <tool_call> bodies', fill('<tool_call>{"name": "read_file", "arguments": {"path": "')],
    ['one unterminated string', `{"name": "read_file", "arguments": {"path": "${fill('a')}`],
    ['unclosed Python calls, one per line', fill('read_file(path="\n')],
    ['nested invalid arrays', `${'['.repeat(MB / 4)}{"x": oops${']'.repeat(MB / 4)}`],
    ['unclosed XML parameters', fill('<function=read_file><parameter=path>')],
    ['[TOOL_CALLS] with open JSON', fill('[TOOL_CALLS]read_file[ARGS]{')],
    ['line breaks only', fill('\n')],
    [
      'unclosed Step-3 invokes',
      fill('<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="read_file"><steptml:parameter name="path">'),
    ],
    ['call separators without calls', fill('function<｜tool_sep｜>')],
    ['Functionary parts with open JSON', fill('>>>read_file\n{"path": ')],
    ['an Apertus list never closed', `<|tools_prefix|>[${fill('{"read_file": {"path": "a"}}, ')}`],
    ['unclosed invoke parameters', fill('<invoke name="read_file"><parameter name="path">')],
    ['harmony headers', fill('<|channel|>commentary to=functions.read_file<|message|>')],
    ['pythonic lists mid-line, never closed', fill('see [read_file(path="a", ')],
    // the 2025–26 families (formats/token-pairs.ts, xtml.ts, minimax-m3.ts, minicpm.ts, cwm.ts, rwkv.ts, inkling.ts)
    ['unclosed IFM calls with open values', fill('<ifm|tool_call>read_file<ifm|arg_key>path</ifm|arg_key><ifm|arg_value>x')],
    ['IFM sections of nameless calls', fill('<ifm|tool_calls><ifm|tool_call>a</ifm|tool_call>')],
    ['unclosed Hunyuan arg keys', fill('<tool_call:s>read_file<arg_key:s>path</arg_key:s>')],
    ['unclosed Solar Open args', fill('<|tool_call:start|>read_file\n<|tool_arg:start|>path<|tool_arg:value|>x')],
    [
      'PLaMo requests never closed',
      fill('<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>a'),
    ],
    [
      'XTML calls with open arguments',
      fill('<|open|>call tool="read_file" index="1"<|sep|><|open|>argument key="path" type="string"<|sep|>x'),
    ],
    ['XTML openers without separators', fill('<|open|>call tool="a"')],
    ['MiniMax M3 invokes never closed', fill(']<]minimax[>[<invoke name="read_file">]<]minimax[>[<path>x')],
    ['CWM tool headers', fill('<tool: function>\nread_file x\n')],
    ['RWKV fenced calls with open JSON', fill('**Tool Call:**\n```json\n{"name": "read_file", "arguments": {')],
    ['Inkling JSON calls, unterminated turn', fill('<|content_invoke_tool_json|>{"name":"read_file","args":{"path":"x"}}')],
    ['MiniCPM params never closed', fill('<function name="read_file"><param name="path">x')],
    ['MiniCPM collapsed tags', fill('<functionname="read_file"><paramname="path">x</param>')],
    ['param_key pairs never closed', fill('<tool_call>read_file<param_key>path</param_key><param_value>x')],
  ];
}

/**
 * MB extracted per second of wall time — or, with `clock` 'cpu', per second of this process's CPU
 * time, the figure to compare on a shared machine where other work takes the cores.
 */
function throughputMBps(
  replies: string[],
  tools: LlmToolDefinition[] | undefined,
  minRunMs: number,
  policy?: ExtractionPolicy,
  clock: 'wall' | 'cpu' = 'wall',
): number {
  const bytes = replies.reduce((sum, r) => sum + Buffer.byteLength(r, 'utf8'), 0);
  const options = policy ? { policy } : undefined;
  const now = clock === 'wall' ? () => performance.now() : cpuMs;
  let processed = 0;
  const started = now();
  let elapsed = 0;
  do {
    for (const reply of replies) extractToolCallsFromContent(reply, tools, options);
    processed += bytes;
    elapsed = now() - started;
  } while (elapsed < minRunMs);
  return processed / (1 << 20) / (elapsed / 1000);
}

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

export async function benchExtraction(options: ExtractionBenchOptions = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 9;
  const minRunMs = options.minRunMs ?? 200;
  const replies = realisticReplies();
  const newer = newerFormatReplies();
  const withCalls = replies.filter((r) => extractToolCallsFromContent(r, TOOLS).calls.length > 0).length;
  const longReply = (PROSE + CODE).repeat(Math.ceil(65536 / (PROSE + CODE).length));
  const figures: BenchFigure[] = [];

  const measure = (fn: () => number, times = runs): number => {
    fn(); // warm-up
    return median(Array.from({ length: times }, fn));
  };
  // the optimising compiler settles only after a while of mixed work: warm every workload first,
  // so the first figure is not the one that pays for it
  for (const round of [1, 2, 3]) {
    for (const set of [replies, newer]) throughputMBps(set, round === 2 ? undefined : TOOLS, minRunMs);
  }
  figures.push({
    name: 'throughput, mixed replies, tools declared',
    value: measure(() => throughputMBps(replies, TOOLS, minRunMs)),
    unit: 'MB/s',
    note: `${replies.length} replies, ${withCalls} with calls, ${new Set(replies.map((r) => extractToolCallsFromContent(r, TOOLS).strategy)).size - 1} formats`,
  });
  figures.push({
    name: 'throughput, mixed replies, tools declared, per CPU-second',
    value: measure(() => throughputMBps(replies, TOOLS, minRunMs, undefined, 'cpu')),
    unit: 'MB/s',
    note: "this process's CPU time (GC threads included): steadier than wall time on a shared machine",
  });
  figures.push({
    name: 'throughput, mixed replies, tools declared, strict',
    value: measure(() => throughputMBps(replies, TOOLS, minRunMs, 'strict')),
    unit: 'MB/s',
  });
  figures.push({
    name: 'throughput, mixed replies, no tools',
    value: measure(() => throughputMBps(replies, undefined, minRunMs)),
    unit: 'MB/s',
  });
  figures.push({
    name: 'throughput, newer-format replies, tools declared',
    value: measure(() => throughputMBps(newer, TOOLS, minRunMs)),
    unit: 'MB/s',
    note: `${newer.length} replies, ${newer.filter((r) => extractToolCallsFromContent(r, TOOLS).calls.length > 0).length} with calls`,
  });
  figures.push({
    name: 'throughput, 64 KB prose-and-code reply, tools declared',
    value: measure(() => throughputMBps([longReply], TOOLS, minRunMs)),
    unit: 'MB/s',
  });

  const timeOf = (input: string) => (): number => {
    const started = performance.now();
    extractToolCallsFromContent(input, TOOLS);
    return performance.now() - started;
  };
  let worst: { label: string; ms: number } | undefined;
  for (const [label, input] of adversarialInputs()) {
    const ms = measure(timeOf(input), options.worstCaseRuns ?? 5);
    if (!worst || ms > worst.ms) worst = { label, ms };
    figures.push({ name: `worst case, 1 MB of ${label}`, value: ms, unit: 'ms', note: 'tools declared' });
  }
  if (worst) {
    const input = adversarialInputs().find(([l]) => l === worst?.label)?.[1] ?? '';
    const cpu = measure(() => {
      const started = cpuMs();
      extractToolCallsFromContent(input, TOOLS);
      return cpuMs() - started;
    }, options.worstCaseRuns ?? 5);
    figures.push({
      name: 'worst case, 1 MB, slowest input',
      value: worst.ms,
      unit: 'ms',
      note: `${worst.label}; ${cpu.toFixed(1)} ms of CPU`,
    });
  }

  // linearity: the same kind of input at growing sizes; time per MB should stay flat
  const sizes = options.scalingSizes ?? [10 << 10, 100 << 10, 1 << 20, 10 << 20];
  const mixedText = replies.join('\n\n');
  const scaled = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  for (const size of sizes) {
    const runsAt = size >= 10 << 20 ? 3 : (options.worstCaseRuns ?? 5);
    figures.push({
      name: `linearity, ${sizeLabel(size)} of mixed replies in one reply`,
      value: measure(timeOf(scaled(mixedText + '\n\n', size)), runsAt),
      unit: 'ms',
      note: 'tools declared',
    });
  }
  if (worst) {
    const label = worst.label;
    for (const size of sizes) {
      const input = adversarialInputs(size).find(([l]) => l === label)?.[1] ?? '';
      figures.push({
        name: `linearity, ${sizeLabel(size)} of ${label}`,
        value: measure(timeOf(input), size >= 10 << 20 ? 3 : (options.worstCaseRuns ?? 5)),
        unit: 'ms',
        note: 'the slowest 1 MB input, tools declared',
      });
    }
  }
  return figures;
}

function sizeLabel(bytes: number): string {
  return bytes >= 1 << 20 ? `${bytes / (1 << 20)} MB` : `${bytes >> 10} KB`;
}
