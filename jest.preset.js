// Shared jest settings: @swc/jest transforms TypeScript (and the ESM-only packages listed below),
// and the workspace libraries resolve to their sources so tests never depend on a previous build.
const path = require('node:path');
const fs = require('node:fs');

const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));
const esmPackages = ['aedes', 'aedes-.*', 'konva', 'react-konva', 'its-fine', 'mqemitter', 'hyperid'];

module.exports = {
  // Used when a project runs alone (`nx run <project>:test`, `jest -c <project>/jest.config.js`); the
  // root jest.config.js sets the same for a run of every project. End-to-end tests start processes.
  testTimeout: 120_000,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper: {
    // A dynamic import() names the compiled file ('./xlsx.js', as Node resolves it at run time); in a
    // test that is the TypeScript source beside it.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // A library's testing entry (`@furnace/db/testing`) resolves through its package.json's exports.
    '^@furnace/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
};
