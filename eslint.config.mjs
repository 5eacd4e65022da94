import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import boundariesPlugin from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const dashboardLayers = layers();

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
  // Nx project tagged type:app|lib and scope:api|ingest|dashboard|system|shared. Libraries import
  // libraries only; an app imports libraries of its own scope or shared ones, never another app
  // (apps/standalone, scope:system, composes the api's and the ingest's libraries).
  { plugins: { '@nx': nx } },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries()] },
  },
  // Tests of several apps together (test/) and the benchmarks (bench/) drive the apps from outside and
  // import their sources and test harnesses by path; they are projects of their own (type:e2e,
  // type:tool), never imported by an app or a lib. Tool configuration files read the root's presets.
  {
    files: ['test/**', 'bench/**', '**/jest.config.js', '**/*.config.ts', '**/*.config.mjs'],
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
      'boundaries/files': [{ category: 'shell', pattern: ['apps/dashboard/src/main.tsx', 'apps/dashboard/src/app/App.tsx', 'apps/dashboard/src/app/router.ts'] }],
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

/** The dependency rules between Nx projects, by tag. */
function boundaries() {
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['*'] },
      { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:api', 'scope:shared'] },
      { sourceTag: 'scope:ingest', onlyDependOnLibsWithTags: ['scope:ingest', 'scope:shared'] },
      { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:shared'] },
      { sourceTag: 'scope:system', onlyDependOnLibsWithTags: ['scope:api', 'scope:ingest', 'scope:shared'] },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
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
    ['page', `${src}/features/{live-view,monitor,history,research,auth,settings,users}`],
    ['frame', `${src}/features/layout`],
    ['routes', `${src}/routes`],
  ];
  const types = order.map(([type]) => type);
  return {
    elements: order.map(([type, pattern]) => ({ type, pattern, partialMatch: false })),
    policies: [
      ...types.slice(1).map((type, i) => ({ from: { element: { type } }, allow: { to: { element: { types: { anyOf: types.slice(0, i + 1) } } } } })),
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
