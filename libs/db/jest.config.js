// integration: src/**/*.int-spec.ts run against a fresh database each (TEST_DATABASE_URL's server, or
// an embedded PGlite when it is unset), so a file may take seconds to start.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'db',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'],
};
