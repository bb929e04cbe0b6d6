import { createHash } from 'node:crypto';
import { provenanceFromMetadata, recordedRequestSettings, trialProvenance } from './trial-provenance';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('trial provenance', () => {
  const input = {
    scenarioHash: sha('scenario'),
    toolDefinitions: [{ name: 'read_file' }],
    systemPrompt: 'You are careful.',
    prompt: 'Read a.txt',
    modelDigest: 'sha256:abc',
    ollamaVersion: '0.12.3',
    loupeRevision: 'abc123+dirty',
    loupeDiffHash: sha('diff'),
    profile: 'corvid',
    seed: 1234,
  };

  it('hashes the tool schema, system prompt and prompt in full (64 hex)', () => {
    const p = trialProvenance(input);
    expect(p.toolSchemaHash).toBe(sha(JSON.stringify(input.toolDefinitions)));
    expect(p.systemPromptHash).toBe(sha(input.systemPrompt));
    expect(p.promptHash).toBe(sha(input.prompt));
    for (const h of [p.scenarioHash, p.toolSchemaHash, p.systemPromptHash, p.promptHash]) expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(p).toMatchObject({
      modelDigest: 'sha256:abc',
      ollamaVersion: '0.12.3',
      loupeRevision: 'abc123+dirty',
      profile: 'corvid',
      seed: 1234,
    });
  });

  it('reads the resolved settings and the first request options from the recorded events', () => {
    const events = [
      { type: 'session_started', payload: { settings: { profile: 'loupe', temperature: 0.2 } } },
      { type: 'inference_request', payload: { options: { seed: 5, temperature: 0.2, top_p: 'default' } } },
      { type: 'inference_request', payload: { options: { seed: 5 } } },
    ];
    expect(recordedRequestSettings(events)).toEqual({
      settings: { profile: 'loupe', temperature: 0.2 },
      requestOptions: { seed: 5, temperature: 0.2, top_p: 'default' },
    });
    expect(recordedRequestSettings([])).toEqual({ settings: null, requestOptions: null });
  });

  it('round-trips through the metadata a trial row keeps (with its other fields beside it)', () => {
    const p = { ...trialProvenance(input), settings: { profile: 'corvid' }, requestOptions: { seed: 1234 } };
    expect(provenanceFromMetadata({ ...p, model: 'm', backend: 'http://x', recordedExchanges: 3 })).toEqual(p);
  });

  it('is absent for a trial that errored before its backend was described, and for rows recorded before provenance', () => {
    expect(provenanceFromMetadata({ scenarioHash: sha('s'), loupeRevision: 'r', profile: 'loupe', seed: 1 })).toBeUndefined();
    expect(provenanceFromMetadata({ scenarioHash: sha('s'), toolSchemaHash: 'abcd1234abcd1234' })).toBeUndefined();
    expect(provenanceFromMetadata(undefined)).toBeUndefined();
  });
});
