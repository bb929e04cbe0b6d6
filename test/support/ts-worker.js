// Runs a TypeScript module on a worker thread: jest's transform does not reach worker threads, so
// .ts files are transpiled as they are required (types are not checked here; tsc does that).
const fs = require('node:fs');
const ts = require('typescript');
const { workerData } = require('node:worker_threads');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
require(workerData.entry);
