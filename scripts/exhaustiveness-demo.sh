#!/usr/bin/env bash
# Shows that the compiler enforces the loop's closed switches (issue 42): adds a sixth NextStep kind
# in a scratch copy of the tree and expects `tsc` to fail at the loop's never guard. Exit 0 = the
# build failed as it must.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/src" "$root/tsconfig.json" "$tmp/"
mkdir -p "$tmp/node_modules" && ln -s "$root/node_modules"/* "$tmp/node_modules/" 2>/dev/null || true
file="$tmp/src/process/policies/next-step.ts"
grep -q "export type NextStep" "$file"
# a new member of the union, handled nowhere
sed -i "0,/export type NextStep =/s//export type NextStep =\n  | { kind: 'ask_user'; question: string }/" "$file"
cat > "$tmp/tsconfig.json" <<JSON
{ "extends": "$root/tsconfig.json", "compilerOptions": { "rootDir": "." }, "include": ["src"] }
JSON
if out=$(cd "$tmp" && "$root/node_modules/.bin/tsc" -p tsconfig.json --noEmit 2>&1); then
  echo "FAIL: adding a NextStep kind still compiles"; exit 1
fi
echo "$out" | grep -E "agent-loop.ts.*(never|not assignable)" || { echo "FAIL: tsc failed, but not at the loop's guard:"; echo "$out" | head; exit 1; }
echo "ok: adding a NextStep kind fails the build at the loop's never guard"
