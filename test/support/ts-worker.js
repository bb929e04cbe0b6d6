// Runs a TypeScript module on a worker thread: jest's transform does not reach worker threads, so
// .ts files are transpiled as they are required (ts-register.js; types are not checked here, tsc does that).
require('./ts-register');
const { workerData } = require('node:worker_threads');

require(workerData.entry);
