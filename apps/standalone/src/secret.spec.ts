import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedSecretDir, loadStandaloneConfig } from '@furnace/config';
import { ensureSecretFile } from './secret';

const tmp = () => mkdtempSync(join(tmpdir(), 'furnace-secret-'));

describe('the secret an embedded start keeps (ensureSecretFile)', () => {
  it('is generated into the data directory on the first start (this user only) and read back at every later one', () => {
    const dataDir = join(tmp(), 'data'); // not there yet
    const first = ensureSecretFile(dataDir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readdirSync(dataDir)).toEqual(['secret_key']);
    expect(readFileSync(join(dataDir, 'secret_key'), 'utf8')).toBe(first);
    expect(statSync(join(dataDir, 'secret_key')).mode & 0o777).toBe(0o600);
    expect(ensureSecretFile(dataDir)).toBe(first);
  });

  it('is what the configuration signs with across restarts, as apps/standalone/src/main.ts passes it', () => {
    const env = { DATA_DIR: tmp() };
    const start = () => {
      const dir = embeddedSecretDir(env);
      return loadStandaloneConfig(dir ? { ...env, SECRET_KEY: ensureSecretFile(dir) } : env);
    };
    const first = start();
    expect(start().secretKey).toBe(first.secretKey);
    expect(readFileSync(join(env.DATA_DIR, 'secret_key'), 'utf8')).toBe(first.secretKey);
  });
});
