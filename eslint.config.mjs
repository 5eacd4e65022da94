import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import boundariesPlugin from 'eslint-plugin-boundaries';
import globals from 'globals';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dashboardLayers = layers();

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'libs/api-client/src/generated/**',
      'apps/dashboard/src/routeTree.gen.ts',
      'coverage/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Module boundaries (docs/architecture.md, "Projects and their boundaries"): every app and lib is an
  // Nx project tagged type:app|lib, scope:api|ingest|dashboard|system|shared and platform:node|browser|any.
  // Libraries import libraries only; an app imports libraries of its own scope or shared ones, never
  // another app (apps/standalone, scope:system, composes the api's and the ingest's libraries). A
  // platform:browser project imports browser or any libraries, a platform:node one node or any, a
  // platform:any one any only; the packages of the other platform are banned by name.
  { plugins: { '@nx': nx } },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries()] },
  },
  // Each workspace declares the packages its code imports (docs/architecture.md, "Dependencies and
  // images"): a library or app whose production files (Nx's `production` input: tests left out) import
  // a package its package.json's `dependencies` lacks fails here, as does one declaring a package it no
  // longer imports, since an image installs only its workspaces' dependencies. The @furnace/* libraries
  // are not declared (each image's Dockerfile names them: infra/test/image-dependencies.spec.ts).
  // The dashboard is left out: Vite bundles it, no process installs its dependencies. The rule reads
  // Nx's project graph: run it through `npm run lint`.
  {
    files: ['apps/*/package.json', 'libs/*/package.json'],
    ignores: ['apps/dashboard/package.json'],
    languageOptions: { parser: jsoncParser },
    rules: {
      '@nx/dependency-checks': [
        'error',
        {
          // @swc-node/register: the report renderer's worker registers it only when run from the .ts sources (tests).
          ignoredDependencies: [...workspacePackages(), '@swc-node/register'],
          checkMissingDependencies: true,
          checkObsoleteDependencies: true,
          checkVersionMismatches: true,
        },
      ],
    },
  },
  // The dashboard's tests and tools run in Node (jest, Playwright, the benchmark, the build's Vite plugin):
  // they may import node libraries (@furnace/testing's research body); the server's packages stay banned.
  {
    files: [
      'apps/dashboard/e2e/**',
      'apps/dashboard/bench/**',
      'apps/dashboard/build/**',
      'apps/dashboard/src/test/**',
      'apps/dashboard/src/**/*.spec.{ts,tsx}',
    ],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries({ browserRunsOnNode: true })] },
  },
  // Tests of several apps together (test/, type:e2e) and the benchmarks (bench/, type:tool) drive the apps
  // from outside, both scope:system: they import libraries through their entries only, the public one or
  // a library's `testing` entry (`@furnace/api-server/testing`, its package.json's exports), never a
  // library's src/ or test/ folder by path, and nothing imports them. The rule is off only for the jest
  // configurations (each requires the root's jest.preset.js by its path, a file of the workspace, not a
  // library) and the k6 scripts, which run in k6: it finds an import by its file's path only, never in
  // node_modules, so the live stream's script imports the dashboard's frame ordering by path.
  {
    files: ['infra/k6/**', '**/jest.config.js'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['apps/dashboard/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // The dashboard's layers (apps/dashboard/README.md, "Layers"; docs/architecture.md, "Inside the
  // dashboard"): a folder imports only the layers below its own, a page never another page, and a file
  // outside every layer fails (no-unknown-files), so a new folder is placed before it is used.
  {
    files: ['apps/dashboard/src/**/*.{ts,tsx}'],
    plugins: { boundaries: boundariesPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx'] } },
      'boundaries/elements': dashboardLayers.elements,
      'boundaries/files': [
        {
          category: 'shell',
          pattern: [
            'apps/dashboard/src/main.tsx',
            'apps/dashboard/src/app/App.tsx',
            'apps/dashboard/src/app/router.ts',
          ],
        },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{from.element.path}} ({{from.element.type}}) may not import {{to.element.path}} ({{to.element.type}}): a layer imports only the layers below it, and a page or a section no other (apps/dashboard/README.md, "Layers")',
          policies: dashboardLayers.policies,
        },
      ],
      'boundaries/no-unknown-files': 'error',
    },
  },
);

/**
 * The dependency rules between Nx projects, by tag. `browserRunsOnNode`: for the dashboard's files that
 * run in Node (tests and tools), which may also import node libraries.
 */
function boundaries({ browserRunsOnNode = false } = {}) {
  /** Packages of the server, never in a browser's bundle nor in a library both sides import. */
  const NODE_ONLY = [
    'typeorm',
    'pg',
    'pg-*',
    '@electric-sql/*',
    'sharp',
    'pdfkit',
    'svg-to-pdfkit',
    'fontkit',
    'exceljs',
    '@nestjs/*',
    'nestjs-pino',
    'pino-http',
    'express',
    'express-*',
    'ioredis',
    'argon2',
    'nodemailer',
    'aedes',
    'prom-client',
    'ws',
  ];
  /** Packages of the dashboard's user interface, never in a server process. */
  const BROWSER_ONLY = [
    'react',
    'react-dom',
    'react-*',
    '@mantine/*',
    '@tanstack/react-*',
    '@tabler/*',
    'konva',
    'hls.js',
    'echarts-for-react',
  ];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:api', 'scope:shared'] },
      { sourceTag: 'scope:ingest', onlyDependOnLibsWithTags: ['scope:ingest', 'scope:shared'] },
      { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:shared'] },
      { sourceTag: 'scope:system', onlyDependOnLibsWithTags: ['scope:api', 'scope:ingest', 'scope:shared'] },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      {
        sourceTag: 'platform:browser',
        onlyDependOnLibsWithTags: browserRunsOnNode
          ? ['platform:browser', 'platform:any', 'platform:node']
          : ['platform:browser', 'platform:any'],
        bannedExternalImports: NODE_ONLY,
      },
      {
        sourceTag: 'platform:node',
        onlyDependOnLibsWithTags: ['platform:node', 'platform:any'],
        bannedExternalImports: BROWSER_ONLY,
      },
      {
        sourceTag: 'platform:any',
        onlyDependOnLibsWithTags: ['platform:any'],
        bannedExternalImports: [...NODE_ONLY, ...BROWSER_ONLY],
      },
    ],
  };
}

/**
 * The dashboard's layers, bottom to top: each may import the ones before it (and a folder itself), never
 * one after it; the folders of one layer (the sections, the pages) never import each other.
 */
function layers() {
  const src = 'apps/dashboard/src';
  const order = [
    ['i18n', `${src}/i18n`],
    ['api', `${src}/api`],
    ['lib', `${src}/lib`],
    ['components', `${src}/components`],
    ['app', `${src}/app`],
    ['test', `${src}/test`],
    ['stream', `${src}/features/stream`],
    ['charts', `${src}/features/charts`],
    ['criteria', `${src}/features/criteria`],
    ['live', `${src}/features/live`],
    ['section', `${src}/features/{replay,review,audit}`],
    ['page', `${src}/features/{live-view,monitor,history,research,auth,settings,users,furnaces,lab}`],
    ['frame', `${src}/features/layout`],
    ['routes', `${src}/routes`],
  ];
  const types = order.map(([type]) => type);
  return {
    elements: order.map(([type, pattern]) => ({ type, pattern, partialMatch: false })),
    policies: [
      ...types.slice(1).map((type, i) => ({
        from: { element: { type } },
        allow: { to: { element: { types: { anyOf: types.slice(0, i + 1) } } } },
      })),
      // The entry point, the app's root and its router put everything together.
      { from: { file: { categories: 'shell' } }, allow: { to: { element: { types: { anyOf: types } } } } },
      // The live screens' test renders both staff live screens, the live view and the monitor, with one
      // set of fakes of the API and the socket.
      {
        from: { file: { path: `${src}/features/live-view/LiveView.spec.tsx` } },
        allow: { to: { element: { type: 'page', path: `${src}/features/monitor` } } },
      },
    ],
  };
}

/** The names of the workspace's own packages (apps/*, libs/*: `@furnace/…`). */
function workspacePackages() {
  return ['apps', 'libs'].flatMap((parent) =>
    readdirSync(join(import.meta.dirname, parent))
      .filter((name) => existsSync(join(import.meta.dirname, parent, name, 'package.json')))
      .map((name) => JSON.parse(readFileSync(join(import.meta.dirname, parent, name, 'package.json'), 'utf8')).name),
  );
}
