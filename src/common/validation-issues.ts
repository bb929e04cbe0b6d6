// zod's issues as the field errors every request boundary reports (the admin API's 400, the socket's
// error message, the CLI's exit 2): one dotted field per problem, unknown keys named one by one.
import type { z } from 'zod';
import type { FieldError } from './request-errors';

/** zod issues as field errors under `prefix` (record keys and unknown keys included). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], prefix: Array<string | number> = []): FieldError[] {
  const join = (p: ReadonlyArray<PropertyKey>) => [...prefix, ...p].map(String).join('.');
  return issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => ({ field: join([...issue.path, k]), message: 'unknown field' }));
    if (issue.code === 'invalid_key') return [{ field: join(issue.path), message: issue.issues[0]?.message ?? issue.message }];
    return [{ field: join(issue.path) || '(body)', message: issue.message.replace(/^Invalid input: /, '') }];
  });
}
