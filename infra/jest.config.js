// The deployment files (docker-compose.yml, Dockerfiles, broker and proxy configuration) and the k6
// scripts: checked without Docker or k6, which do not run here (see infra/test). small: *.spec.ts;
// integration: *.int-spec.ts (the broker configuration loaded by a real Mosquitto).
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'infra',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.int-spec.ts'],
};
