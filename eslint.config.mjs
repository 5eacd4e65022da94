import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'libs/api-client/src/generated/**', 'apps/dashboard/src/routeTree.gen.ts', 'coverage/**', 'data/**', 'test-results/**', 'playwright-report/**', 'tmp/**'] },
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
  // The dashboard's tests and tools run in Node (jest, Playwright, the benchmark, the build's Vite plugin):
  // they may import node libraries (@furnace/testing's research body); the server's packages stay banned.
  {
    files: ['apps/dashboard/e2e/**', 'apps/dashboard/bench/**', 'apps/dashboard/build/**', 'apps/dashboard/src/test/**', 'apps/dashboard/src/**/*.spec.{ts,tsx}'],
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
  const BROWSER_ONLY = ['react', 'react-dom', 'react-*', '@mantine/*', '@tanstack/react-*', '@tabler/*', 'konva', 'hls.js', 'echarts-for-react'];
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
        onlyDependOnLibsWithTags: browserRunsOnNode ? ['platform:browser', 'platform:any', 'platform:node'] : ['platform:browser', 'platform:any'],
        bannedExternalImports: NODE_ONLY,
      },
      { sourceTag: 'platform:node', onlyDependOnLibsWithTags: ['platform:node', 'platform:any'], bannedExternalImports: BROWSER_ONLY },
      { sourceTag: 'platform:any', onlyDependOnLibsWithTags: ['platform:any'], bannedExternalImports: [...NODE_ONLY, ...BROWSER_ONLY] },
    ],
  };
}
