// Password recovery as a user goes through it: the e-mail arrives at a real SMTP server (or, with no
// SMTP configured, in DATA_DIR/outbox), and the link it carries is the one that resets the password.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { login, waitFor } from '@furnace/testing';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';
import { type MailingApi, startMailingApi, type TestSmtp } from './smtp';
import { expired, tamper } from './tokens';

const FROM = 'furnace@lab.example';
const FRONTEND = 'http://dashboard.test';
const SENT = { message: 'If that email is registered, we sent a password recovery link' };

/** The reset link of a message body (text or HTML), and its token. */
function resetLink(body: string | false | undefined): { link: string; token: string } {
  const link = new RegExp(`${FRONTEND}/reset-password\\?token=[^\\s"'<]+`).exec(body || '')?.[0];
  if (!link) throw new Error(`no reset link in: ${String(body)}`);
  return { link, token: new URL(link).searchParams.get('token')! };
}

describe('accounts: password recovery by e-mail', () => {
  let mailing: MailingApi;
  let smtp: TestSmtp;
  let api: TestApi;
  let admin: string;
  beforeAll(async () => ({ api, smtp, admin } = mailing = await startMailingApi(FROM)));
  afterAll(() => mailing?.close());

  const recover = (email: string, lang?: string) =>
    api.http.post(`/api/v1/password-recovery/${encodeURIComponent(email)}`).query(lang ? { lang } : {});
  const reset = (token: string, new_password: string) =>
    api.http.post('/api/v1/reset-password/').send({ token, new_password });
  const loginStatus = (email: string, password: string) =>
    api.http
      .post('/api/v1/login/access-token')
      .type('form')
      .send({ username: email, password })
      .then((r) => r.status);
  /** Requests recovery for the account and returns the message the SMTP server received. */
  async function recoveryMail(email: string, lang?: string) {
    const before = smtp.received.length;
    const res = await recover(email, lang);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SENT);
    return smtp.next(
      (m) => smtp.received.indexOf(m) >= before && m.to.includes(email),
      `the recovery e-mail to ${email}`,
    );
  }

  it("writes the e-mail in the language asked for, Polish (the installation's) without one; refuses another language with 422 and sends nothing", async () => {
    const u = await signUpUser(api);
    const pl = await recoveryMail(u.email);
    expect(pl.parsed.subject).toBe(`Furnace Live - Odzyskiwanie hasła użytkownika ${u.email}`);
    expect(pl.parsed.text).toContain('Otrzymaliśmy prośbę o odzyskanie hasła do Twojego konta.');
    const en = await recoveryMail(u.email, 'en');
    expect(en.parsed.subject).toBe(`Furnace Live - Password recovery for user ${u.email}`);
    expect(en.parsed.text).toContain('We received a request to recover the password for your account.');
    const before = smtp.received.length;
    const bad = await recover(u.email, 'de');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      expect.objectContaining({ loc: ['query', 'lang'], msg: 'lang must be one of pl, en' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.length).toBe(before);
  });

  it('mails a link that resets the password once: the new password signs in, the old one not', async () => {
    const u = await signUpUser(api);
    const mail = await recoveryMail(u.email, 'en');
    expect(mail.from).toBe(FROM);
    expect(mail.parsed.from?.value[0].address).toBe(FROM);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: u.email }] });
    expect(mail.parsed.subject).toBe(`Furnace Live - Password recovery for user ${u.email}`);
    const { link, token } = resetLink(mail.parsed.text);
    // The HTML button carries the same link as the plain-text part.
    expect(resetLink(mail.parsed.html).link).toBe(link);

    const res = await reset(token, 'chosen-after-reset-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password updated successfully' });
    expect(await loginStatus(u.email, 'chosen-after-reset-1')).toBe(200);
    expect(await loginStatus(u.email, u.password)).toBe(400);

    const again = await reset(token, 'chosen-a-second-time');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: 'Invalid token' });
    expect(await loginStatus(u.email, 'chosen-after-reset-1')).toBe(200);
  });

  it('answers an unknown address exactly as a registered one, and mails nothing to it', async () => {
    const u = await signUpUser(api);
    const unknown = await recover('nobody-registered@example.com');
    const known = await recover(u.email);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    await smtp.next((m) => m.to.includes(u.email), 'the recovery e-mail to the registered address');
    expect(smtp.received.filter((m) => m.to.includes('nobody-registered@example.com'))).toEqual([]);
  });

  it('refuses a tampered or an expired link (400), while the genuine one still works', async () => {
    const u = await signUpUser(api);
    const { token } = resetLink((await recoveryMail(u.email)).parsed.text);
    const other = await signUpUser(api);
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const bad of [
      tamper(token, { sub: other.email }),
      expired(token, api.config.secretKey),
      flipped,
      'not-a-token',
    ]) {
      const res = await reset(bad, 'attackers-password');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Invalid token' });
    }
    expect(await loginStatus(other.email, 'attackers-password')).toBe(400);
    expect((await reset(token, 'genuine-new-password')).status).toBe(200);
    expect(await loginStatus(u.email, 'genuine-new-password')).toBe(200);
  });

  it('refuses a link requested before the password was changed in the settings', async () => {
    const u = await signUpUser(api);
    const { token } = resetLink((await recoveryMail(u.email)).parsed.text);
    const changed = await api.http
      .patch('/api/v1/users/me/password')
      .set(auth(u.token))
      .send({ current_password: u.password, new_password: 'changed-in-settings' });
    expect(changed.status).toBe(200);
    expect((await reset(token, 'attackers-password')).status).toBe(400);
    expect(await loginStatus(u.email, 'changed-in-settings')).toBe(200);
  });

  it('answers 422 for a too short new password and leaves the link usable', async () => {
    const u = await signUpUser(api);
    const { token } = resetLink((await recoveryMail(u.email)).parsed.text);
    const res = await reset(token, 'short');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [{ loc: ['body', 'new_password'], msg: 'Password must be at least 8 characters', type: 'minLength' }],
    });
    expect((await reset(token, 'long-enough-now')).status).toBe(200);
  });

  describe('password-recovery-html-content', () => {
    it("gives a superuser the e-mail's HTML, whose link works", async () => {
      const u = await signUpUser(api);
      const res = await api.http.post(`/api/v1/password-recovery-html-content/${u.email}?lang=en`).set(auth(admin));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Password recovery');
      const { token } = resetLink(res.text);
      expect((await reset(token, 'set-from-preview-1')).status).toBe(200);
      expect(await loginStatus(u.email, 'set-from-preview-1')).toBe(200);
    });

    it('is refused to a user (403) and to anonymous callers (401), and answers an unknown address with a JSON 404', async () => {
      const u = await signUpUser(api);
      const path = `/api/v1/password-recovery-html-content/${u.email}`;
      const asUser = await api.http.post(path).set(auth(u.token));
      expect(asUser.status).toBe(403);
      expect(asUser.text).not.toContain('reset-password');
      const anonymous = await api.http.post(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.text).not.toContain('reset-password');
      const missing = await api.http
        .post('/api/v1/password-recovery-html-content/nobody-registered@example.com')
        .set(auth(admin));
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/json/);
      expect(missing.body).toEqual({ detail: 'The user with this email does not exist in the system' });
    });
  });

  describe('with no SMTP server configured (outbox)', () => {
    let outboxApi: TestApi;
    beforeAll(async () => {
      outboxApi = await startTestApi({}, { db: api.db });
    });
    afterAll(() => outboxApi?.close());

    it('writes the message as an .eml file under DATA_DIR/outbox, with a link that works', async () => {
      const outbox = join(outboxApi.config.dataDir, 'outbox');
      const u = await signUpUser(outboxApi);
      const unknown = await outboxApi.http.post('/api/v1/password-recovery/nobody-registered@example.com');
      const known = await outboxApi.http.post(`/api/v1/password-recovery/${u.email}`);
      expect(known.status).toBe(200);
      expect(unknown.body).toEqual(known.body);

      // The outbox also holds the superuser's notice of the sign-up: the recovery e-mail is the one to the account.
      const parsed = await waitFor('the recovery e-mail as an .eml file in the outbox', async () => {
        const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
        for (const name of names) {
          const mail = await simpleParser(await readFile(join(outbox, name)));
          if ((mail.to as { value: { address?: string }[] } | undefined)?.value[0]?.address === u.email) return mail;
        }
        return false;
      });
      expect(parsed.to).toMatchObject({ value: [{ address: u.email }] });
      const { token } = resetLink(parsed.text);
      const res = await outboxApi.http
        .post('/api/v1/reset-password/')
        .send({ token, new_password: 'from-the-outbox-1' });
      expect(res.status).toBe(200);
      expect(await login(outboxApi, u.email, 'from-the-outbox-1')).toEqual(expect.any(String));
    });
  });
});
