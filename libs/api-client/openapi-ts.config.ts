import { defineConfig } from '@hey-api/openapi-ts';

// The typed client of the REST API, generated from the committed OpenAPI document.
export default defineConfig({
  input: './openapi.json',
  output: { path: './src/generated', format: false, lint: false },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', { name: '@hey-api/sdk', asClass: false }],
});
