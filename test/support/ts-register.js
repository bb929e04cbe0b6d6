// Lets a test's child process run the TypeScript sources as ts-jest does (transpiled one file at a
// time, no type check), for tests whose subject must be a process of its own: what such a process
// holds in its initial environment cannot be staged from inside the jest process.
// Usage: node -r ./test/support/ts-register.js some-script.ts
const fs = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  resolveJsonModule: true,
};

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
