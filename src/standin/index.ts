// Public surface of the Ollama stand-in.
export type {
  StandinCapability, StandinFault, StandinModel, StandinOptions, StandinScript, StandinToolCall, StandinTurn,
} from './standin-script';
export { StandinServer, DEFAULT_MAX_QUEUE, DEFAULT_STANDIN_VERSION, type StandinAddress } from './standin-server';
export { runStandinCli, type StandinCliHandle, type StandinCliOptions } from './standin-cli';
export { DEFAULT_STANDIN_CATALOG, findCatalogModel, isCloudModel } from './standin-catalog';
export type { StandinRequestRecord } from './standin-request-log';
export { SERVER_BUSY_ERROR, RUNNER_ERROR } from './standin-fault';
export { PULL_UNKNOWN_MODEL_ERROR } from './standin-pull-plan';
