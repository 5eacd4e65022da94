// The API as a library: apps/api runs it as its own process, apps/standalone inside the whole system.
export { buildOpenApiDocument, createApiApp, listenApi } from './app';
export type { ApiDeps } from './app.module';
export { OPENAPI_FILE, renderOpenApi } from './openapi';
export { limitHeapGrowth } from './core/heap';
