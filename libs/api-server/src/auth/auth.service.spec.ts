import { BadRequestException, Logger, NotFoundException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { loadStandaloneConfig } from '@furnace/config';
import { FakeAudit } from '../../test/fakes/audit.fake';
import { FakeUsersRepository } from '../../test/fakes/users.repository.fake';
import type { MailMessage, MailService } from '../mail/mail.service';
import { PasswordHasher } from '../users/password-hasher';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import type { Revocations } from './revocations';
import { TokenService } from './token.service';

const PASSWORD = 'correct-horse-1';
const hasher = new PasswordHasher();
let HASH: string;
beforeAll(async () => {
  HASH = await hasher.hash(PASSWORD);
});

const config = loadStandaloneConfig({
  NODE_ENV: 'test',
  SECRET_KEY: 'auth-service-test-secret-0123456789abcdef',
  FRONTEND_HOST: 'https://dashboard.example',
});

/** Records what would be sent; `failWith` makes delivery fail as an unreachable SMTP server would. */
class FakeMail {
  readonly sent: MailMessage[] = [];
  failWith?: Error;
  async send(msg: MailMessage): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.sent.push(msg);
  }
}

function setup() {
  const repo = new FakeUsersRepository();
  const users = new UsersService(
    repo.asRepository(),
    hasher,
    { publish: async () => undefined } as unknown as Revocations,
    new FakeAudit().as(),
  );
  const tokens = new TokenService(
    new JwtService({ secret: config.secretKey, signOptions: { algorithm: 'HS256' } }),
    config,
  );
  const mail = new FakeMail();
  const auth = new AuthService(users, tokens, mail as unknown as MailService, config);
  const alice = repo.seed({ email: 'alice@example.com', hashedPassword: HASH });
  const inactive = repo.seed({ email: 'gone@example.com', hashedPassword: HASH, isActive: false });
  return { repo, users, tokens, mail, auth, alice, inactive };
}

/** Delivery runs after recoverPassword returns: let it finish. */
const deliveries = () => new Promise((resolve) => setImmediate(resolve));

async function rejection(p: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BadRequestException || e instanceof NotFoundException)
      return { status: e.getStatus(), detail: e.message };
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** The token of the link in the last recovery e-mail. */
function mailedToken(mail: FakeMail): string {
  const msg = mail.sent.at(-1)!;
  const link = /https:\/\/dashboard\.example\/reset-password\?token=([\w.%-]+)/.exec(msg.text)?.[1];
  if (!link) throw new Error(`no reset link in: ${msg.text}`);
  return decodeURIComponent(link);
}

describe('AuthService', () => {
  afterEach(() => jest.useRealTimers());

  describe('login', () => {
    it('returns an access token for the account, the e-mail in any letter case', async () => {
      const { auth, tokens, alice } = setup();
      const token = await auth.login('Alice@Example.com', PASSWORD);
      expect(tokens.verifySession(token)).toEqual({ sub: alice.id, typ: 'access', ver: 0, exp: expect.any(Number) });
    });

    it('answers 400 with the same detail for a wrong password and an unknown e-mail', async () => {
      const { auth } = setup();
      const wrong = await rejection(auth.login('alice@example.com', 'wrong-password'));
      expect(wrong).toEqual({ status: 400, detail: 'Incorrect email or password' });
      expect(await rejection(auth.login('nobody@example.com', PASSWORD))).toEqual(wrong);
    });

    it('refuses an inactive account', async () => {
      const { auth } = setup();
      expect(await rejection(auth.login('gone@example.com', PASSWORD))).toEqual({
        status: 400,
        detail: 'Inactive user',
      });
    });
  });

  describe('password recovery', () => {
    it('mails the account a link to FRONTEND_HOST/reset-password carrying a token', async () => {
      const { auth, mail } = setup();
      await auth.recoverPassword('ALICE@example.com', 'en');
      await deliveries();
      expect(mail.sent).toHaveLength(1);
      expect(mail.sent[0]).toMatchObject({
        to: 'alice@example.com',
        subject: 'Furnace Live - Password recovery for user alice@example.com',
      });
      expect(mail.sent[0].html).toContain('https://dashboard.example/reset-password?token=');
      expect(mailedToken(mail).split('.')).toHaveLength(3);
    });

    it('sends nothing for an unknown or inactive address, and resolves the same way', async () => {
      const { auth, mail } = setup();
      await expect(auth.recoverPassword('nobody@example.com', 'pl')).resolves.toBeUndefined();
      await expect(auth.recoverPassword('gone@example.com', 'pl')).resolves.toBeUndefined();
      await deliveries();
      expect(mail.sent).toEqual([]);
    });

    it('does not reveal a failed delivery to the caller, and logs it', async () => {
      const { auth, mail } = setup();
      mail.failWith = new Error('connect ECONNREFUSED 127.0.0.1:25');
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        await expect(auth.recoverPassword('alice@example.com', 'pl')).resolves.toBeUndefined();
        await deliveries();
        expect(warn).toHaveBeenCalledWith(expect.stringContaining('alice@example.com'));
      } finally {
        warn.mockRestore();
      }
    });
  });

  describe('reset password', () => {
    it('sets the new password with the mailed token, which then stops working', async () => {
      const { auth, users, mail } = setup();
      await auth.recoverPassword('alice@example.com', 'pl');
      await deliveries();
      const token = mailedToken(mail);
      await auth.resetPassword(token, 'a-new-password');
      expect(await users.authenticate('alice@example.com', 'a-new-password')).not.toBeNull();
      expect(await users.authenticate('alice@example.com', PASSWORD)).toBeNull();
      expect(await rejection(auth.resetPassword(token, 'yet-another-password'))).toEqual({
        status: 400,
        detail: 'Invalid token',
      });
      expect(await users.authenticate('alice@example.com', 'a-new-password')).not.toBeNull();
    });

    it('refuses a token issued before the password was changed another way', async () => {
      const { auth, users, mail, alice } = setup();
      await auth.recoverPassword('alice@example.com', 'pl');
      await deliveries();
      await users.changePassword(alice, PASSWORD, 'changed-in-settings');
      expect((await rejection(auth.resetPassword(mailedToken(mail), 'attackers-password'))).status).toBe(400);
      expect(await users.authenticate('alice@example.com', 'changed-in-settings')).not.toBeNull();
    });

    it('refuses a tampered token, an access token and garbage', async () => {
      const { auth, tokens, mail, alice } = setup();
      await auth.recoverPassword('alice@example.com', 'pl');
      await deliveries();
      const [header, payload, signature] = mailedToken(mail).split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: Number(claims.exp) + 3600 })).toString('base64url')}.${signature}`;
      for (const token of [tampered, tokens.accessToken(alice.id, 0), 'garbage']) {
        expect(await rejection(auth.resetPassword(token, 'attackers-password'))).toEqual({
          status: 400,
          detail: 'Invalid token',
        });
      }
    });

    it('refuses a token older than 48 hours', async () => {
      jest.useFakeTimers({
        now: new Date('2030-01-01T00:00:00Z'),
        doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
      });
      const { auth, mail } = setup();
      await auth.recoverPassword('alice@example.com', 'pl');
      await deliveries();
      jest.setSystemTime(new Date('2030-01-03T00:00:01Z'));
      expect(await rejection(auth.resetPassword(mailedToken(mail), 'a-new-password'))).toEqual({
        status: 400,
        detail: 'Invalid token',
      });
    });

    it('refuses the token of an account deleted or deactivated since', async () => {
      const { auth, repo, mail, alice, inactive } = setup();
      await auth.recoverPassword('alice@example.com', 'pl');
      await deliveries();
      const token = mailedToken(mail);
      await repo.delete(alice.id);
      expect((await rejection(auth.resetPassword(token, 'a-new-password'))).status).toBe(400);
      // A token issued while active (here: by the superuser's preview), then the account deactivated.
      const previewToken = /token=([\w.%-]+)/.exec(await auth.recoveryHtml('gone@example.com', 'pl'))![1];
      expect(repo.stored(inactive.id)?.isActive).toBe(false);
      expect(await rejection(auth.resetPassword(decodeURIComponent(previewToken), 'a-new-password'))).toEqual({
        status: 400,
        detail: 'Inactive user',
      });
    });
  });

  describe('recovery e-mail preview (superuser)', () => {
    it("returns the e-mail's HTML with a working link, and 404 for an unknown address", async () => {
      const { auth, users } = setup();
      expect(await auth.recoveryHtml('alice@example.com', 'pl')).toContain('Odzyskiwanie hasła');
      const html = await auth.recoveryHtml('alice@example.com', 'en');
      expect(html).toContain('Password recovery');
      const token = decodeURIComponent(/reset-password\?token=([\w.%-]+)/.exec(html)![1]);
      await auth.resetPassword(token, 'set-from-preview');
      expect(await users.authenticate('alice@example.com', 'set-from-preview')).not.toBeNull();
      expect(await rejection(auth.recoveryHtml('nobody@example.com', 'pl'))).toEqual({
        status: 404,
        detail: 'The user with this email does not exist in the system',
      });
    });
  });
});
