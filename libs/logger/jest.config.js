module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'logger',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
