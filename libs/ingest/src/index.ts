// The ingest as a library: apps/ingest runs it as its own process, apps/standalone inside the whole system.
export { type RunningIngest, startIngest } from './ingest';
export { startHttpEndpoint } from './http-endpoint';
