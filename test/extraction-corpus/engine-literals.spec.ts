// The engine corpus, scored under both policies: model outputs taken from the tool-call parser
// tests of vLLM, SGLang, llama.cpp and TensorRT-LLM (one JSON file per engine here, each case with
// the repository, path and commit it was read from; docs/extraction-survey.md lists the families).
// Extraction is told each case's family, as the engine is told which parser to run. Under strict
// every case must come out as the engine's test expects — every negative case (an output the
// engine's parser rejects) with no call, and a `strict_rejected` drop for each call it refused.
// Under lenient every positive case must; a negative case may come out as a repaired call (that is
// what lenient is for: each such call carries its `call_repaired`), so lenient is held to the
// figure measured when the corpus was ported.
import { extractToolCallsFromContent } from '../../src/provider/ollama/tool-calls';
import type { ExtractionPolicy } from '../../src/provider/ollama/tool-calls/types';
import { familyOf, loadCorpus, scoreCase, scoreEngines, toolsOf, type CorpusCase, type Extract } from './corpus-score';

const extract: Extract = (content, tools, policy, family) => extractToolCallsFromContent(content, tools, { policy, family });
const CORPORA = loadCorpus();
const ALL: CorpusCase[] = CORPORA.flatMap((c) => c.cases);
const NEGATIVES = ALL.filter((c) => c.negative);

/** Cases right under lenient, per engine, when the corpus was ported (negatives repaired into calls are the difference). */
const LENIENT_FLOORS: Record<string, number> = { llamacpp: 17, sglang: 23, 'tensorrt-llm': 3, vllm: 164 };

describe('engine corpus', () => {
  it('names the source of every case, with a full commit', () => {
    const bad = ALL.filter((c) => !c.source.repo.includes('/') || !c.source.path || !/^[0-9a-f]{40}$/.test(c.source.commit));
    expect(bad.map((c) => c.id)).toEqual([]);
    expect(new Set(ALL.map((c) => c.id)).size).toBe(ALL.length);
  });

  it('holds a floor for every engine it holds', () => {
    expect(CORPORA.map((c) => c.engine).sort()).toEqual(Object.keys(LENIENT_FLOORS).sort());
  });

  describe('strict', () => {
    it('reads every case as the engine does', () => {
      const wrong = ALL.filter((c) => !scoreCase(c, extract, 'strict').right).map((c) => c.id);
      expect(wrong).toEqual([]);
    });

    it('holds negative cases to test', () => {
      expect(NEGATIVES.length).toBeGreaterThan(40);
    });

    it('yields no call for every negative case', () => {
      const called = NEGATIVES.filter((c) => scoreCase(c, extract, 'strict').calls.length > 0).map((c) => c.id);
      expect(called).toEqual([]);
    });

    it('drops with its reason every call that lenient reads only by repair', () => {
      const silent = NEGATIVES.filter((c) => {
        const lenient = extract(c.input, toolsOf(c), 'lenient', familyOf(c));
        if (!lenient.repairs.some((r) => r.kind === 'call_repaired')) return false;
        const strict = extract(c.input, toolsOf(c), 'strict', familyOf(c));
        return !(strict.dropped ?? []).some((d) => d.reason === 'strict_rejected' && d.detail);
      }).map((c) => c.id);
      expect(silent).toEqual([]);
    });
  });

  describe('lenient', () => {
    it('reads every positive case as the engine does', () => {
      const wrong = ALL.filter((c) => !c.negative && !scoreCase(c, extract, 'lenient').right).map((c) => c.id);
      expect(wrong).toEqual([]);
    });

    it.each(Object.entries(LENIENT_FLOORS))('%s scores at least its measured figure', (engine, floor) => {
      const score = scoreEngines(
        CORPORA.filter((c) => c.engine === engine),
        extract,
        'lenient' as ExtractionPolicy,
      )[0];
      expect(score.right).toBeGreaterThanOrEqual(floor);
    });

    it('records a repair on every call it reads from a negative case', () => {
      const unrecorded = NEGATIVES.map((c) => ({ c, r: extract(c.input, toolsOf(c), 'lenient', familyOf(c)) }))
        .filter(({ r }) => r.calls.length > 0 && !r.repairs.some((rep) => rep.kind === 'call_repaired'))
        .map(({ c }) => c.id);
      expect(unrecorded).toEqual([]);
    });
  });
});
