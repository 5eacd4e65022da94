// small: src/**/*.spec.ts (the ingest's rules with fakes); integration: test/**/*.int-spec.ts (the
// ingest against a real MQTT broker, database and bus, with the faults the README lists).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'ingest',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.int-spec.ts'],
};
