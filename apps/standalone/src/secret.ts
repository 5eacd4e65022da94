import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The secret an embedded `npm start` signs tokens with, kept in `dataDir/secret_key` (mode 0600) so
 * that sessions survive a restart: read when it exists, generated and written on the first start.
 * The one file the start writes before its configuration is read (docs/architecture.md, "Configuration").
 */
export function ensureSecretFile(dataDir: string): string {
  const file = join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
