// Writes the OpenAPI document (the REST contract) to libs/api-client/openapi.json: `npm run openapi`.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApi } from '@furnace/api-server';

renderOpenApi()
  .then((text) => {
    writeFileSync(OPENAPI_FILE, text);
    console.log(`Wrote ${OPENAPI_FILE}`);
  })
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
