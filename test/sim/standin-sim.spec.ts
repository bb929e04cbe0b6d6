// Simulated models on the stand-in, over real HTTP through the real ollama client: a `sim:<persona>`
// model is listed and shown from its persona (family, context length), its turns come from the
// persona's policy over the conversation it is sent (not the script's cursor), and the same request
// gets the same reply.
import { Ollama, type Message, type Tool } from 'ollama';
import type { Persona, SimPlan } from '../../src/sim/sim-types';
import { StandinServer } from '../../src/standin/standin-server';
import { simCatalogModel } from '../../src/standin/standin-sim';

const servers: StandinServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.stop())));

/** Never deviates: whatever the policy's draws, each turn is the plan's next step. */
const diligent: Persona = {
  name: 'steady',
  description: 'follows the plan',
  family: 'llama3',
  toolCalls: 'native',
  tokensPerSecond: 40,
  prefillTokensPerSecond: 800,
  contextLength: 16_384,
  behaviour: { base: {} },
  losePlan: 0,
};

const plan: SimPlan = {
  steps: [
    { name: 'read_file', arguments: { path: 'a.txt' } },
    { name: 'write_file', arguments: { path: 'b.txt', content: 'hello' } },
  ],
  finalAnswer: 'Copied: b.txt says hello.',
};

const tool = (name: string): Tool => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
});
const TOOLS = [tool('read_file'), tool('write_file')];

async function start() {
  const server = new StandinServer({
    script: { turns: { '*': [{ content: 'scripted one' }, { content: 'scripted two' }] } },
    sim: { 'sim:steady': { persona: diligent, plan } },
    timeScale: 0, // the persona's speeds without the waits
  });
  servers.push(server);
  const { url } = await server.start(0);
  return { server, client: new Ollama({ host: url }) };
}

describe('simulated models on the stand-in', () => {
  it('lists and shows a persona as a model: its family, context length and tools capability', async () => {
    const { client } = await start();
    const tags = await client.list();
    expect(tags.models.map((m) => m.name)).toContain('sim:steady');
    const show = await client.show({ model: 'sim:steady' });
    expect(show.details.family).toBe('llama');
    expect(show.capabilities).toEqual(expect.arrayContaining(['completion', 'tools']));
    expect(JSON.stringify(show.model_info)).toContain('16384');
    expect(simCatalogModel('sim:steady', diligent)).toMatchObject({
      tokensPerSecond: 40,
      prefillTokensPerSecond: 800,
      contextLength: 16_384,
    });
  });

  it('follows the plan from what the conversation shows, then answers; scripted models keep their own cursor', async () => {
    const { client, server } = await start();
    const messages: Message[] = [{ role: 'user', content: 'Copy a.txt to b.txt' }];
    const options = { seed: 7 };
    const first = await client.chat({ model: 'sim:steady', messages, tools: TOOLS, options, stream: false });
    expect(first.message.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([['read_file', { path: 'a.txt' }]]);
    messages.push(first.message, { role: 'tool', content: 'hello', tool_name: 'read_file' } as Message);
    const second = await client.chat({ model: 'sim:steady', messages, tools: TOOLS, options, stream: false });
    expect(second.message.tool_calls?.map((c) => c.function.name)).toEqual(['write_file']);
    messages.push(second.message, { role: 'tool', content: 'wrote b.txt', tool_name: 'write_file' } as Message);
    const last = await client.chat({ model: 'sim:steady', messages, tools: TOOLS, options, stream: true });
    let text = '';
    for await (const chunk of last) text += chunk.message.content;
    expect(text).toBe(plan.finalAnswer);
    // the script's turns were not consumed by the simulated model
    const scripted = await client.chat({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect(scripted.message.content).toBe('scripted one');
    expect(server.requests.filter((r) => r.path === '/api/chat').map((r) => r.simBehaviour)).toEqual([
      'next_step',
      'next_step',
      'next_step',
      undefined,
    ]);
  });

  it('answers the same request the same way (the retry of a dropped reply gets the same turn)', async () => {
    const { client } = await start();
    const ask = () =>
      client.chat({ model: 'sim:steady', messages: [{ role: 'user', content: 'go' }], tools: TOOLS, options: { seed: 3 }, stream: false });
    const [a, b] = [await ask(), await ask()];
    // (call ids are fresh per response, as Ollama's)
    expect(b.message.tool_calls?.map((c) => c.function)).toEqual(a.message.tool_calls?.map((c) => c.function));
    expect(b.message.content).toBe(a.message.content);
  });

  it('a model named in both the catalog and sim is the simulated one', async () => {
    const server = new StandinServer({
      catalog: [{ name: 'sim:steady', family: 'qwen2', parameterSize: '1B', capabilities: ['completion'] }],
      sim: { 'sim:steady': { persona: diligent, plan } },
    });
    expect(server.catalog.filter((m) => m.name === 'sim:steady')).toEqual([expect.objectContaining({ family: 'llama' })]);
  });
});
