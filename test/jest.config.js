// end-to-end across processes: test/**/*.e2e-spec.ts start the built apps (apps/*/dist) as separate
// processes against the machine's PostgreSQL, Redis and Mosquitto (skipped when those are not configured).
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'system',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.e2e-spec.ts'],
};
