// The compile-time guard of a closed switch: once every case is handled the value left is `never`,
// so adding a member to the union (a new NextStep kind, a new recovery) fails the build here
// instead of falling through to `undefined` at run time.
export function unreachable(value: never, what: string): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
