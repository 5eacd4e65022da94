// small: the embedded broker's access rules, with real MQTT clients on a free port.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'broker',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
