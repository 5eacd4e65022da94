module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'criteria',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
