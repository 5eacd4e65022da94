// small: src/**/*.spec.ts (the ingest's rules with fakes); medium: test/**/*.e2e-spec.ts (the ingest
// against a real MQTT broker, database and bus, with the faults the issue lists).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'ingest',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
