// Commands load the application (Nest, TypeORM, OpenTelemetry, MCP) only when they run, so `--help`,
// usage errors and bad scenario files answer at once.
/* eslint-disable @typescript-eslint/no-require-imports */
export const lazy = {
  appContext: () => require('./app-context') as typeof import('./app-context'),
  runner: () => require('../eval/scenario-runner.service') as typeof import('../eval/scenario-runner.service'),
  trialWarmup: () => require('../eval/trials/trial-warmup') as typeof import('../eval/trials/trial-warmup'),
  loupeRevision: () => require('../eval/loupe-revision') as typeof import('../eval/loupe-revision'),
  sessions: () => require('../journal/session-query.repository') as typeof import('../journal/session-query.repository'),
  standin: () => require('../standin/standin-cli') as typeof import('../standin/standin-cli'),
  catalog: () => require('../eval/standin-catalog-merge') as typeof import('../eval/standin-catalog-merge'),
  extract: () =>
    require('../provider/ollama/tool-calls/jsonl/extract-jsonl') as typeof import('../provider/ollama/tool-calls/jsonl/extract-jsonl'),
  bench: () => require('../../bench/run-benchmarks') as typeof import('../../bench/run-benchmarks'),
  models: () => require('../provider/models.service') as typeof import('../provider/models.service'),
  scenarioSchema: () => require('../eval/scenario/scenario-json-schema') as typeof import('../eval/scenario/scenario-json-schema'),
  evalRepository: () => require('../eval/eval.repository') as typeof import('../eval/eval.repository'),
  recordings: () => require('../eval/recording/recording.repository') as typeof import('../eval/recording/recording.repository'),
  recordingTransfer: () =>
    require('../eval/recording/recording-transfer.service') as typeof import('../eval/recording/recording-transfer.service'),
  recordingFile: () => require('../eval/recording/recording-file') as typeof import('../eval/recording/recording-file'),
  runResume: () => require('../eval/run-resume') as typeof import('../eval/run-resume'),
  queue: () => require('../eval/queue/queued-runs.service') as typeof import('../eval/queue/queued-runs.service'),
  worker: () => require('../eval/queue/worker.service') as typeof import('../eval/queue/worker.service'),
  runStatus: () => require('../eval/queue/run-status.repository') as typeof import('../eval/queue/run-status.repository'),
  reports: () => ({
    ...(require('../eval/reports/junit-report') as typeof import('../eval/reports/junit-report')),
    ...(require('../eval/reports/markdown-report') as typeof import('../eval/reports/markdown-report')),
    ...(require('../eval/statistics/compare') as typeof import('../eval/statistics/compare')),
    ...(require('../eval/statistics/select-configuration') as typeof import('../eval/statistics/select-configuration')),
  }),
  catalogue: () => require('../journal/event-catalogue') as typeof import('../journal/event-catalogue'),
  profiles: () => require('../process/profiles/profiles-table') as typeof import('../process/profiles/profiles-table'),
  loopSettings: () => require('../process/policies/loop-settings') as typeof import('../process/policies/loop-settings'),
  typeorm: () => require('typeorm') as typeof import('typeorm'),
  server: () => require('../server') as typeof import('../server'),
  mcpServers: () => require('../tools/mcp-servers.service') as typeof import('../tools/mcp-servers.service'),
  mcpErrors: () => require('../tools/external-mcp-errors') as typeof import('../tools/external-mcp-errors'),
};
