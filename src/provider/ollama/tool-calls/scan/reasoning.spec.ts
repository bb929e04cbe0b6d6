import { splitReasoning } from './reasoning';

describe('splitReasoning', () => {
  it.each<[string, string, string, string[]]>([
    ['no reasoning', 'Just an answer.', 'Just an answer.', []],
    ['a closed block', '<think>plan</think>Answer.', 'Answer.', ['plan']],
    ['two blocks', '<think>a</think>One. <think>b</think>Two.', 'One. Two.', ['a', 'b']],
    ['a block the prompt opened', 'plan</think>\nAnswer.', 'Answer.', ['plan']],
    ['an unclosed leading block', '  <think>still thinking', '', ['still thinking']],
    ['an unclosed <think> in mid-answer is prose', 'Use <think> tags like this.', 'Use <think> tags like this.', []],
    ['<thinking> tags', '<thinking>hm</thinking>Yes.', 'Yes.', ['hm']],
    ['gpt-oss analysis channel', '<|start|>assistant<|channel|>analysis<|message|>reason<|end|>rest', 'rest', ['reason']],
    ['Gemma 4 thought channel', '<|channel>thought\nidea<channel|>Done.', 'Done.', ['idea']],
    ['Seed-OSS think block', '<seed:think>weigh</seed:think>Reply.', 'Reply.', ['weigh']],
    ['a Seed-OSS block the prompt opened', 'weigh</seed:think>Reply.', 'Reply.', ['weigh']],
    ['Apertus inner channel', '<|inner_prefix|>plan<|inner_suffix|>Reply.', 'Reply.', ['plan']],
    ['an unclosed special-token block mid-answer is still reasoning', 'Reply. <seed:think>more', 'Reply.', ['more']],
    [
      'a harmony analysis message addressed to a tool is a call, not reasoning',
      '<|channel|>analysis to=functions.f<|message|>{}<|call|>',
      '<|channel|>analysis to=functions.f<|message|>{}<|call|>',
      [],
    ],
    [
      'the same with the recipient in the role part',
      '<|start|>assistant to=functions.f<|channel|>analysis<|message|>{}<|call|>',
      '<|start|>assistant to=functions.f<|channel|>analysis<|message|>{}<|call|>',
      [],
    ],
  ])('%s', (_label, content, visible, thinking) => {
    expect(splitReasoning(content)).toEqual({ visible, thinking });
  });
});
