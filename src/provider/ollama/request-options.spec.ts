import { recordedOptions, samplingOptions } from './request-options';

describe('request options', () => {
  it('names the sampling options as Ollama does, leaving out unset ones', () => {
    expect(samplingOptions({ numCtx: 4096, seed: 7, temperature: 0, topP: 0.9, topK: 40, minP: 0.05, repeatPenalty: 1.1 })).toEqual({
      seed: 7,
      temperature: 0,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      repeat_penalty: 1.1,
    });
    expect(samplingOptions({ temperature: 0.2 })).toEqual({ temperature: 0.2 });
    expect(samplingOptions(undefined)).toEqual({});
  });

  it('records what was sent, and "default" for each sampling option that was not', () => {
    expect(recordedOptions({ num_ctx: 8192, num_predict: undefined, seed: 3, temperature: 0.2 })).toEqual({
      num_ctx: 8192,
      seed: 3,
      temperature: 0.2,
      top_p: 'default',
      top_k: 'default',
      min_p: 'default',
      repeat_penalty: 'default',
    });
  });
});
