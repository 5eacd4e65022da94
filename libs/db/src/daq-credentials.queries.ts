import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { RunQuery } from './research.queries';

/*
 * The furnace DAQs' MQTT credentials (docs/behaviour.md, "DAQ credentials"): the API issues them, the
 * embedded broker checks them when a DAQ connects. The password is 32 random bytes, so the hash only
 * has to make a leaked table useless, not slow down guessing: scrypt at N=2^14 costs tens of milliseconds (70–110 ms on a busy 2-core machine), paid once
 * per connection (the broker keeps what it learnt for the connection's lifetime).
 */

/** The bus channel announcing a credential that stopped being valid (rotated, furnace renamed or deleted). */
export const DAQ_REVOCATIONS_CHANNEL = 'furnace:daq-revocations';

const SCRYPT = { N: 1 << 14, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keylen: number) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keylen, { N, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A new DAQ password: 32 random bytes, base64url (43 characters, safe in a shell and a URL). */
export function newDaqPassword(): string {
  return randomBytes(32).toString('base64url');
}

/** `scrypt$N$r$p$salt$hash`, salt and hash base64url. */
export async function hashDaqPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keylen);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches a hashDaqPassword hash (false for anything malformed). */
export async function verifyDaqPassword(password: string, hash: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = hash.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  try {
    const given = await scryptAsync(
      password,
      Buffer.from(salt, 'base64url'),
      Number(n),
      Number(r),
      Number(p),
      expected.length,
    );
    return timingSafeEqual(given, expected);
  } catch {
    return false;
  }
}

/** A furnace DAQ's credential as the broker needs it. */
export interface DaqCredential {
  furnaceCode: string;
  passwordHash: string;
}

/** The credential issued under this username, with its furnace's current code, or null. */
export async function findDaqCredential(run: RunQuery, username: string): Promise<DaqCredential | null> {
  const rows = await run<{ code: string; password_hash: string }>(
    'SELECT f.code, c.password_hash FROM furnace_daq_credential c JOIN furnace f ON f.id = c.furnace_id WHERE c.username = $1',
    [username],
  );
  const row = rows[0];
  return row ? { furnaceCode: row.code, passwordHash: row.password_hash } : null;
}
