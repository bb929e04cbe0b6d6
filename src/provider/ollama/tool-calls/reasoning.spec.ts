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
  ])('%s', (_label, content, visible, thinking) => {
    expect(splitReasoning(content)).toEqual({ visible, thinking });
  });
});
