import { createHmac } from 'node:crypto';

// What a client, or an attacker, can do with a JWT: read its claims and, knowing the secret, sign new ones.
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

/** The same header and signature with other claims: what tampering with a token looks like. */
export function tamper(token: string, changes: Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64({ ...claimsOf(token), ...changes })}.${signature}`;
}

/** A correctly signed HS256 token with the given claims. */
export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** The token's claims re-signed with an expiry in the past. */
export const expired = (token: string, secret: string) => {
  const now = Math.floor(Date.now() / 1000);
  return signHs256({ ...claimsOf(token), iat: now - 7200, exp: now - 60 }, secret);
};
