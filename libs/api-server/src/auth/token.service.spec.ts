import { createHmac } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { loadStandaloneConfig } from '@furnace/config';
import { TokenService } from './token.service';

const SECRET = 'token-service-test-secret-0123456789abcdef';
const config = loadStandaloneConfig({ NODE_ENV: 'test', SECRET_KEY: SECRET, ACCESS_TOKEN_EXPIRE_MINUTES: '30' });
const tokensWith = (secret: string) =>
  new TokenService(new JwtService({ secret, signOptions: { algorithm: 'HS256' } }), config);
const tokens = tokensWith(SECRET);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
/** The token with its payload replaced and the original signature kept. */
const withPayload = (token: string, payload: Record<string, unknown>) => {
  const [header, , signature] = token.split('.');
  return `${header}.${b64(payload)}.${signature}`;
};
const hs256 = (payload: Record<string, unknown>, secret: string) => {
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
};

const USER_ID = '6f1c2b0e-8a44-4c55-9d1e-0a1b2c3d4e5f';
const HASH = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$aGFzaA';

describe('TokenService', () => {
  afterEach(() => jest.useRealTimers());

  it('issues access tokens that identify the user', () => {
    expect(tokens.verifySession(tokens.accessToken(USER_ID, 0))).toEqual({
      sub: USER_ID,
      typ: 'access',
      ver: 0,
      exp: expect.any(Number),
    });
  });

  it('issues viewer tokens scoped to one research', () => {
    const research = '11111111-2222-4333-8444-555555555555';
    expect(tokens.verifySession(tokens.viewerToken('email-record-id', research))).toEqual({
      sub: 'email-record-id',
      rid: research,
      typ: 'viewer',
      exp: expect.any(Number),
    });
  });

  it('rejects a token whose payload was changed after signing', () => {
    const token = tokens.accessToken(USER_ID, 0);
    const forged = withPayload(token, { ...payloadOf(token), sub: '00000000-0000-4000-8000-000000000000' });
    expect(tokens.verifySession(forged)).toBeNull();
  });

  it('rejects tokens signed with another secret, unsigned (alg none) tokens and garbage', () => {
    expect(
      tokensWith('another-secret-that-is-long-enough-0000').verifySession(tokens.accessToken(USER_ID, 0)),
    ).toBeNull();
    const claims = payloadOf(tokens.accessToken(USER_ID, 0));
    expect(tokens.verifySession(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`)).toBeNull();
    expect(tokens.verifySession('not-a-token')).toBeNull();
    // The same claims correctly signed are accepted: the rejections above are about the signature.
    expect(tokens.verifySession(hs256(claims, SECRET))).toEqual({
      sub: USER_ID,
      typ: 'access',
      ver: 0,
      exp: expect.any(Number),
    });
  });

  it('rejects an access token once ACCESS_TOKEN_EXPIRE_MINUTES have passed', () => {
    jest.useFakeTimers({
      now: new Date('2030-01-01T00:00:00Z'),
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
    });
    const token = tokens.accessToken(USER_ID, 0);
    jest.setSystemTime(new Date('2030-01-01T00:29:00Z'));
    expect(tokens.verifySession(token)).not.toBeNull();
    jest.setSystemTime(new Date('2030-01-01T00:30:01Z'));
    expect(tokens.verifySession(token)).toBeNull();
  });

  it('never accepts a reset token as a session, nor a session token as a reset token', async () => {
    const reset = tokens.resetToken('alice@example.com', HASH);
    expect(tokens.verifySession(reset)).toBeNull();
    const access = withPayload(tokens.accessToken(USER_ID, 0), { sub: 'alice@example.com', typ: 'access' });
    expect(await tokens.verifyReset(access, async () => HASH)).toBeNull();
    expect(await tokens.verifyReset(tokens.accessToken('alice@example.com', 0), async () => HASH)).toBeNull();
  });

  it('accepts a reset token only while the password it was issued for is unchanged', async () => {
    const reset = tokens.resetToken('alice@example.com', HASH);
    expect(await tokens.verifyReset(reset, async () => HASH)).toBe('alice@example.com');
    expect(await tokens.verifyReset(reset, async () => `${HASH}-changed`)).toBeNull();
    expect(await tokens.verifyReset(reset, async () => null)).toBeNull();
  });

  it('rejects a reset token after 48 hours and a tampered one', async () => {
    jest.useFakeTimers({
      now: new Date('2030-01-01T00:00:00Z'),
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
    });
    const reset = tokens.resetToken('alice@example.com', HASH);
    expect(
      await tokens.verifyReset(
        withPayload(reset, { ...payloadOf(reset), sub: 'mallory@example.com' }),
        async () => HASH,
      ),
    ).toBeNull();
    jest.setSystemTime(new Date('2030-01-02T23:59:00Z'));
    expect(await tokens.verifyReset(reset, async () => HASH)).toBe('alice@example.com');
    jest.setSystemTime(new Date('2030-01-03T00:00:01Z'));
    expect(await tokens.verifyReset(reset, async () => HASH)).toBeNull();
  });
});
