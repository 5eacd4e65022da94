// small: src/**/*.spec.ts (services with fakes); integration: test/**/*.int-spec.ts (the API in this
// process against a real database, bus and broker, driven over HTTP and WebSocket); end-to-end:
// test/**/*.e2e-spec.ts (the built processes, e.g. the security suite's multi-instance and log tests).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
