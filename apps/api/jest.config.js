// small: src/**/*.spec.ts (services with fakes); integration: test/**/*.int-spec.ts (the API in this
// process against a real database, bus and broker, driven over HTTP and WebSocket).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.int-spec.ts'],
};
