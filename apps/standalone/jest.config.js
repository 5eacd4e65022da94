// End-to-end: the built system started as `npm start` starts it (apps/standalone/dist/main.js); and the demo's
// seeding against a real database (test/demo.int-spec.ts); the small tests of src (src/*.spec.ts).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'standalone',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.int-spec.ts'],
};
