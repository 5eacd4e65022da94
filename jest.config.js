// `npm test` runs every project; each project's jest.config.js lists its own tiers.
module.exports = {
  projects: [
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/infra/jest.config.js',
    '<rootDir>/test/jest.config.js',
  ],
  // Global, not per project: jest-circus reads only the run's own testTimeout and ignores one set in a
  // project's config. End-to-end tests start processes and servers, so they get two minutes.
  testTimeout: 120_000,
};
