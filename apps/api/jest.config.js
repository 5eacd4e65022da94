// small: src/**/*.spec.ts (services with fakes); medium and end-to-end: test/**/*.e2e-spec.ts (the API
// against a real database, driven over HTTP).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
