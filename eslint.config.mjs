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
  // Nx project tagged type:app|lib and scope:api|ingest|dashboard|system|shared. Libraries import
  // libraries only; an app imports libraries of its own scope or shared ones, never another app
  // (apps/standalone, scope:system, composes the api's and the ingest's libraries).
  { plugins: { '@nx': nx } },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries()] },
  },
  // Tests of several apps together (test/, type:e2e) and the benchmarks (bench/, type:tool) drive the apps
  // from outside, both scope:system: they import libraries through their entries only, the public one or
  // a library's `testing` entry (`@furnace/api-server/testing`, its package.json's exports), never a
  // library's src/ or test/ folder by path, and nothing imports them. The rule is off only for the jest
  // configurations: each requires the root's jest.preset.js by its path, a file of the workspace, not a library.
  {
    files: ['**/jest.config.js'],
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

/** The dependency rules between Nx projects, by tag. */
function boundaries() {
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
    ],
  };
}
