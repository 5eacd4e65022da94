// End-to-end: the built system started as `npm start` starts it (apps/standalone/dist/main.js).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'standalone',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
};
