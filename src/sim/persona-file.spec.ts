import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PersonaFileError, UnknownPersonaError } from './persona-errors';
import { loadPersonaFile, parsePersonaYaml } from './persona-file';
import { findPersona, listPersonas, SHIPPED_PERSONAS_DIR } from './personas';

const GOOD = `description: test persona
family: qwen3
tokens_per_second: 40
prefill_tokens_per_second: 900
context_length: 8192
behaviour:
  base:
    repeat_last: 0.2
`;

function problemsOf(text: string, file = 'personas/x.yaml') {
  try {
    parsePersonaYaml(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(PersonaFileError);
    return { problems: (e as PersonaFileError).problems, message: (e as Error).message };
  }
  throw new Error('no error');
}

describe('persona files', () => {
  it('reads a persona with defaults: name from the file, native calls, lose_plan 0, situations fall back to base', () => {
    expect(parsePersonaYaml(GOOD, '/a/b/x.yaml')).toEqual({
      name: 'x',
      description: 'test persona',
      family: 'qwen3',
      toolCalls: 'native',
      tokensPerSecond: 40,
      prefillTokensPerSecond: 900,
      contextLength: 8192,
      behaviour: { base: { repeat_last: 0.2 } },
      losePlan: 0,
    });
  });

  it('a probability outside [0, 1]: file, line and field', () => {
    const { problems, message } = problemsOf(GOOD.replace('repeat_last: 0.2', 'repeat_last: 1.5'));
    expect(problems).toEqual([expect.objectContaining({ file: 'personas/x.yaml', line: 8, field: 'behaviour.base.repeat_last' })]);
    expect(message).toMatch(/^personas\/x\.yaml:8:\d+: behaviour\.base\.repeat_last: a probability is at most 1/);
    expect(problemsOf(`${GOOD}lose_plan: -0.1\n`).problems).toEqual([
      expect.objectContaining({ line: 9, field: 'lose_plan', message: 'a probability is at least 0' }),
    ]);
  });

  it("one situation's probabilities summing over 1: the situation, its line", () => {
    const { problems } = problemsOf(`${GOOD}  after_nudge:\n    promise: 0.7\n    early_answer: 0.5\n`);
    expect(problems).toEqual([
      expect.objectContaining({
        line: 10,
        field: 'behaviour.after_nudge',
        message: expect.stringMatching(/sum to at most 1 \(these sum to 1\.2\)/),
      }),
    ]);
    // 0.1 + 0.2 + 0.7 is 1.0000000000000002 in floating point: not over 1
    expect(() =>
      parsePersonaYaml(`${GOOD}  after_error:\n    promise: 0.1\n    early_answer: 0.2\n    fake_output: 0.7\n`, 'x.yaml'),
    ).not.toThrow();
  });

  it('an unknown key, at any level, names the known ones', () => {
    const { problems } = problemsOf(GOOD.replace('    repeat_last: 0.2', '    repeat_lst: 0.2').replace('family:', 'colour: red\nfamily:'));
    expect(problems).toEqual([
      expect.objectContaining({ line: 2, field: 'colour', message: expect.stringContaining('unknown field (known: name, description,') }),
      expect.objectContaining({ line: 9, field: 'behaviour.base.repeat_lst', message: expect.stringContaining('repeat_last') }),
    ]);
    expect(problemsOf(GOOD.replace('  base:', '  after_nap: {}\n  base:')).problems).toEqual([
      expect.objectContaining({ line: 7, field: 'behaviour.after_nap', message: expect.stringContaining('after_nudge') }),
    ]);
  });

  it('a missing field', () => {
    const { problems } = problemsOf(GOOD.replace('prefill_tokens_per_second: 900\n', ''));
    expect(problems).toEqual([
      expect.objectContaining({ field: 'prefill_tokens_per_second', message: expect.stringMatching(/^required field is missing/) }),
    ]);
    expect(problemsOf(GOOD.replace(/behaviour:[^]*/, 'behaviour: {}\n')).problems).toEqual([
      expect.objectContaining({ line: 6, field: 'behaviour.base', message: expect.stringMatching(/^required field is missing/) }),
    ]);
  });

  it('a wrong type, a name that is not the file name, a YAML syntax error', () => {
    expect(problemsOf(GOOD.replace('family: qwen3', 'family: gpt')).problems[0]).toMatchObject({ line: 2, field: 'family' });
    expect(problemsOf(`name: other\n${GOOD}`).problems[0]).toMatchObject({
      line: 1,
      field: 'name',
      message: expect.stringContaining('(x)'),
    });
    expect(problemsOf(`${GOOD}  after_error: [1,\n`).problems[0]).toMatchObject({
      file: 'personas/x.yaml',
      message: expect.stringMatching(/YAML syntax error/),
    });
  });

  it('a file that cannot be read is a persona file error too', () => {
    expect(() => loadPersonaFile('/nonexistent/p.yaml')).toThrow(PersonaFileError);
  });
});

describe('the shipped personas', () => {
  const required = ['diligent', 'repetitive', 'fabricator', 'procrastinator', 'forgetful', 'sloppy-qwen3'];

  it('are all there, load, and carry speeds and a context length', () => {
    expect(listPersonas()).toEqual(expect.arrayContaining(required));
    for (const name of listPersonas()) {
      const p = findPersona(name);
      expect(p.name).toBe(name);
      expect(p.tokensPerSecond).toBeGreaterThan(0);
      expect(p.prefillTokensPerSecond).toBeGreaterThan(p.tokensPerSecond);
      expect(p.contextLength).toBeGreaterThanOrEqual(2048);
    }
    expect(findPersona('sloppy-qwen3')).toMatchObject({ toolCalls: 'text', family: 'qwen3' });
    expect(path.isAbsolute(SHIPPED_PERSONAS_DIR)).toBe(true);
  });

  it('an unknown persona lists the known ones and a close match', () => {
    let err: unknown;
    try {
      findPersona('repetetive');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnknownPersonaError);
    expect((err as Error).message).toMatch(/^unknown persona "repetetive"; did you mean "repetitive"\? \(known: .*diligent.*sloppy-qwen3/);
    expect(() => findPersona('zzzzzzzzzzzz')).toThrow(/^unknown persona "zzzzzzzzzzzz" \(known: /);
  });

  it("a later directory adds personas and overrides a shipped one's name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'personas-'));
    try {
      fs.writeFileSync(path.join(dir, 'diligent.yaml'), GOOD);
      fs.writeFileSync(path.join(dir, 'mine.yml'), GOOD);
      const dirs = [SHIPPED_PERSONAS_DIR, dir];
      expect(listPersonas(dirs)).toEqual(expect.arrayContaining([...required, 'mine']));
      expect(findPersona('diligent', dirs).description).toBe('test persona');
      expect(findPersona('mine', dirs).name).toBe('mine');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
