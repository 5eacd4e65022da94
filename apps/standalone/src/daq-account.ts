import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The installation DAQ account's username when `npm start` makes it (MQTT_USERNAME unset). */
const GENERATED_DAQ_USERNAME = 'daq';
/** Its password's file in the data directory (scripts/simulate.js reads it too). */
const DAQ_PASSWORD_FILE = 'daq-password';

/**
 * The installation-wide DAQ account of the embedded broker (docs/behaviour.md, "DAQ credentials"):
 * MQTT_USERNAME/MQTT_PASSWORD when set, else `daq` with a password generated at the first start and
 * kept in `{DATA_DIR}/daq-password` (this user only), so the demo, `npm run simulate` and scripts sign
 * in without anyone copying a secret. The password is never logged.
 */
export function installationDaqAccount(
  dataDir: string,
  fromEnv: { username?: string; password?: string },
): { username: string; password: string; file?: string } {
  if (fromEnv.username && fromEnv.password) return { username: fromEnv.username, password: fromEnv.password };
  const file = join(dataDir, DAQ_PASSWORD_FILE);
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 16) return { username: GENERATED_DAQ_USERNAME, password: kept, file };
  }
  mkdirSync(dataDir, { recursive: true });
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { username: GENERATED_DAQ_USERNAME, password, file };
}
