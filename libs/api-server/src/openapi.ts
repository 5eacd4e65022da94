// The OpenAPI document (the REST contract), as `npm run openapi` writes it to libs/api-client/openapi.json.
import 'reflect-metadata';
import { join } from 'node:path';
import { InProcessBus } from '@furnace/bus';
import { loadStandaloneConfig } from '@furnace/config';
import { createDataSource } from '@furnace/db';
import { buildOpenApiDocument } from './app';

export const OPENAPI_FILE = join(__dirname, '..', '..', '..', 'libs', 'api-client', 'openapi.json');

/** The document as committed: stable key order, two-space indent, final newline. */
export async function renderOpenApi(): Promise<string> {
  // Preview mode connects to nothing: the data source is never initialised.
  const config = loadStandaloneConfig({ SECRET_KEY: 'x'.repeat(32), NODE_ENV: 'test' });
  const doc = await buildOpenApiDocument({
    config,
    dataSource: createDataSource({ url: 'postgres://unused/unused' }),
    bus: new InProcessBus(),
  });
  return JSON.stringify(doc, null, 2) + '\n';
}
