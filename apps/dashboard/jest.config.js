// Component and unit tests of the dashboard: src/**/*.spec.ts(x) in jsdom. The Playwright end-to-end
// suite (e2e/*.browser-spec.ts, `npm run test:browser`) is not run by jest.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const requireCjs = createRequire(import.meta.url);
const preset = requireCjs('../../jest.preset.js');

export default {
  ...preset,
  displayName: 'dashboard',
  rootDir: dirname(fileURLToPath(import.meta.url)),
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx', '<rootDir>/build/**/*.spec.ts'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  moduleNameMapper: {
    '\\.css$': '<rootDir>/src/test/style-stub.cjs',
    // The generated client imports its siblings as './x.js' (ESM style) from TypeScript sources.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    ...preset.moduleNameMapper,
  },
};
