// Array helpers for lists that can be long: `push(...items)` passes every item as an argument,
// which overflows the stack for the hundred thousand calls a hostile reply can hold.

export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}
