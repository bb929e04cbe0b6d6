// Array helpers for lists that can be long: `push(...items)` passes every item as an argument,
// which overflows the stack for the hundred thousand calls a hostile reply can hold.

export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  // an index loop: no iterator object per call, which counts when the lists are one call long
  for (let i = 0; i < items.length; i++) target.push(items[i]);
  return target;
}
