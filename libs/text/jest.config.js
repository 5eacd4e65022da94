module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'text',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
