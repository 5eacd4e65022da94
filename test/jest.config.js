// Tests of several apps together. integration: pipeline/*.int-spec.ts (the ingest and the API in the
// test's process, from the DAQ's MQTT message to a viewer's WebSocket and the history); end-to-end:
// *.e2e-spec.ts start the built apps (apps/*/dist) as separate processes against the machine's
// PostgreSQL, Redis and Mosquitto (skipped when those are not configured).
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'system',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.int-spec.ts', '<rootDir>/**/*.e2e-spec.ts'],
};
