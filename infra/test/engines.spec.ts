// The Node versions the project declares (package.json `engines`) are exactly those every locked
// dependency accepts: a version the range admits that a dependency refuses (or the reverse, on the
// lines the project supports) fails here, before `npm ci --engine-strict` fails in CI.
import semver from 'semver';
import { repoFile } from './support';

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
  os?: string[];
}

const manifest = JSON.parse(repoFile('package.json')) as { engines: { node: string } };
const lock = JSON.parse(repoFile('package-lock.json')) as { packages: Record<string, LockPackage> };

/** Each locked package's own Node range, except optional builds for another platform (never installed on Linux). */
const locked = Object.entries(lock.packages).flatMap(([path, pkg]) => {
  const range = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
  if (!path || range === undefined) return [];
  if (pkg.optional && pkg.os !== undefined && !pkg.os.includes('linux')) return [];
  return [{ name: path.replace(/^.*node_modules\//, ''), range }];
});

const refusing = (version: string) =>
  locked.filter((p) => !semver.satisfies(version, p.range)).map((p) => `${p.name} (${p.range})`);

describe('the declared Node versions', () => {
  it('reads the ranges of the lock file', () => {
    expect(locked.length).toBeGreaterThan(50);
  });

  // The supported lines (20, 22, 24 and later) at their edges and at the versions these machines run.
  it.each(['20.19.0', '20.20.2', process.versions.node, '22.13.0', '22.20.0', '24.11.0', '24.13.1', '25.0.0'])(
    '%s: admitted by engines, and every locked dependency accepts it',
    (version) => {
      expect(semver.satisfies(version, manifest.engines.node)).toBe(true);
      expect(refusing(version)).toEqual([]);
    },
  );

  // Versions some dependency refuses stay outside the declared range.
  it.each(['20.18.0', '21.7.0', '22.12.0', '23.11.0', '24.10.0'])(
    '%s: refused by engines, as some locked dependency refuses it',
    (version) => {
      expect(refusing(version).length).toBeGreaterThan(0);
      expect(semver.satisfies(version, manifest.engines.node)).toBe(false);
    },
  );
});
