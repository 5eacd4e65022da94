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
  // Tests of several apps together (test/) and the benchmarks (bench/) drive the apps from outside and
  // import their sources and test harnesses by path; they are projects of their own (type:e2e,
  // type:tool), never imported by an app or a lib. Tool configuration files read the root's presets. The k6
  // scripts run in k6, which finds an import by its file's path only, never in node_modules: the live stream's
  // imports the dashboard's frame ordering from libs/contracts by path.
  {
    files: ['test/**', 'bench/**', 'infra/k6/**', '**/jest.config.js', '**/*.config.ts', '**/*.config.mjs'],
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
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['*'] },
      { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:api', 'scope:shared'] },
      { sourceTag: 'scope:ingest', onlyDependOnLibsWithTags: ['scope:ingest', 'scope:shared'] },
      { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:shared'] },
      { sourceTag: 'scope:system', onlyDependOnLibsWithTags: ['scope:api', 'scope:ingest', 'scope:shared'] },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    ],
  };
}
