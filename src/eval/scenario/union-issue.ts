// zod says only "Invalid input" when a value matches no branch of a union: the branch that got
// furthest is the one meant, so its own problem is reported, at its own field; when every branch
// fails at the value itself, the types each would take are named.
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const received = (issue: Issue) => /received (\w+)/.exec(issue.message)?.[1];

/** The issue to report for `issue`: a union's most specific branch problem, or the issue itself. */
export function explainIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !/^Invalid input$/.test(issue.message)) return issue;
  const branches = issue.errors.filter((b) => b.length);
  if (!branches.length) return { ...issue, message: 'matches none of the accepted forms' };
  const depth = (b: Issue[]) => Math.max(...b.map((i) => i.path.length));
  const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  if (depth(best) > 0) {
    const inner = explainIssue(best.find((i) => i.path.length === depth(best))!);
    return { ...inner, path: [...issue.path, ...inner.path] };
  }
  const firsts = branches.map((b) => explainIssue(b[0]));
  const expected = [...new Set(firsts.map((i) => (i.code === 'invalid_type' ? i.expected : undefined)).filter(Boolean))];
  const got = firsts.map(received).find(Boolean);
  if (firsts.every((i) => i.code === 'invalid_type'))
    return { ...issue, message: `expected ${expected.join(' or ')}${got ? `, received ${got}` : ''}` };
  return { ...issue, message: [...new Set(firsts.map((i) => i.message))].join('; or ') };
}
