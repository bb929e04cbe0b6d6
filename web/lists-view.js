// The run list moved to runs-list.js and the session list to sessions-list.js; kept for old imports.
export { renderRuns } from './runs-list.js';
