// integration: the bus against TEST_REDIS_URL's Redis (and the in-process bus).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'bus',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'],
};
