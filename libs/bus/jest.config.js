module.exports = { ...require('../../jest.preset.js'), displayName: 'bus', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
