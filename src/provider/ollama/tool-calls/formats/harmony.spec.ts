// Harmony (gpt-oss): a message to a tool names its recipient either in the role part or after
// the channel name, on the commentary or the analysis channel; its body is the JSON arguments.
// Written from the format's description.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

describe('Harmony calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'recipient after the channel name, with a constrained content type',
      '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Tokyo"}<|call|>',
      { calls: [['get_weather', { city: 'Tokyo' }]], text: '' },
    ],
    [
      'recipient in the role part of a full header',
      '<|start|>assistant to=functions.search<|channel|>commentary json<|message|>{"query": "ramen"}<|call|>',
      { calls: [['search', { query: 'ramen' }]], text: '' },
    ],
    [
      'recipient in the role part at the very start of the reply',
      ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Osaka"}<|call|>',
      { calls: [['get_weather', { city: 'Osaka' }]], text: '' },
    ],
    [
      'a call on the analysis channel, recipient after the channel',
      '<|channel|>analysis to=functions.search <|constrain|>json<|message|>{"query": "a"}<|call|>',
      { calls: [['search', { query: 'a' }]], text: '' },
    ],
    [
      'a call on the analysis channel, recipient in the role part',
      '<|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>{"city": "Lima"}<|call|>',
      { calls: [['get_weather', { city: 'Lima' }]], text: '' },
    ],
    [
      'analysis without a recipient is reasoning, the final message is text',
      '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather<|message|>{"city": "Kobe"}<|call|><|start|>assistant<|channel|>final<|message|>Sunny.<|return|>',
      { calls: [['get_weather', { city: 'Kobe' }]], text: 'Sunny.' },
    ],
    [
      'a message a tool wrote back to the assistant is not a call',
      '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"temp": 20}<|end|>',
      { calls: [] },
    ],
    [
      'a call with no arguments',
      '<|channel|>commentary to=functions.get_weather<|message|><|call|>',
      { calls: [['get_weather', {}]], text: '' },
    ],
    [
      'a call cut off before its end token still counts when whole',
      '<|channel|>commentary to=functions.search<|message|>{"query": "tail"}',
      { calls: [['search', { query: 'tail' }]], text: '' },
    ],
    [
      'two calls, the first with broken JSON',
      '<|channel|>commentary to=functions.search<|message|>{"query": <|call|><|start|>assistant<|channel|>commentary to=functions.search<|message|>{"query": "ok"}<|call|>',
      { calls: [['search', { query: 'ok' }]] },
    ],
    [
      'an undeclared tool is dropped',
      '<|channel|>commentary to=functions.open_vault<|message|>{}<|call|>',
      { calls: [], text: '', dropped: ['open_vault'] },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
