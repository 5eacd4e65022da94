import { addClient, createResearch } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';
import { startTestSmtp, type TestSmtp } from './smtp';

describe('client e-mails and invitations through a real SMTP server', () => {
  let smtp: TestSmtp;
  let api: TestApi;
  let user: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    api = await startTestApi(smtp.env('lab@furnace.test'));
    user = (await signUpUser(api)).token;
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  it('sends a Polish invitation whose link opens this research and no other', async () => {
    const r = await createResearch(api, user, {
      name: 'Ściana EI 120',
      start_at: '2026-06-10T07:30:00Z',
      end_at: '2026-06-10T11:30:00Z',
    });
    const other = await createResearch(api, user);
    const record = await addClient(api, user, r.id, 'Klient@Example.com');
    expect(record).toMatchObject({ email: 'klient@example.com', is_sent: false, research_id: r.id });
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const sent = await api.http.post(`/api/v1/research/emails/${record.id}/send`).set(auth(user));
    expect(sent.status).toBe(200);
    expect(sent.body.is_sent).toBe(true);

    const mail = (await smtp.next((m) => m.to.includes('klient@example.com'), 'the invitation')).parsed;
    expect(mail.subject).toBe('Zaproszenie do obserwacji badania: Ściana EI 120');
    expect(mail.text).toContain('Rozpoczęcie: 10 czerwca 2026 09:30'); // Europe/Warsaw, summer time
    expect(mail.text).toContain('Zakończenie: 10 czerwca 2026 13:30');
    expect(mail.html).toContain('Ściana EI 120');
    const link = mail.text!.match(/http:\/\/dashboard\.test\/view\/([0-9a-f-]{36})\?code=([0-9a-f-]{36})/);
    expect(link).not.toBeNull();
    const [, researchId, code] = link!;
    expect(researchId).toBe(r.id);

    const token = await api.http.post(`/api/v1/research/${researchId}/viewer-token`).send({ code });
    expect(token.status).toBe(200);
    const viewer = token.body.access_token as string;
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(viewer))).body.name).toBe('Ściana EI 120');
    expect((await api.http.get(`/api/v1/research/${other.id}`).set(auth(viewer))).status).toBe(403);
    expect((await api.http.post(`/api/v1/research/${other.id}/viewer-token`).send({ code })).status).toBe(403);
  });

  it("sends the invitation in the client's language: English when staff chose it, Polish by default", async () => {
    const r = await createResearch(api, user, {
      name: 'Door EI2 60',
      start_at: '2026-01-15T08:00:00Z',
      end_at: '2026-01-15T10:00:00Z',
    });
    const english = await api.http
      .post('/api/v1/research/emails')
      .set(auth(user))
      .send({ research_id: r.id, email: 'client.en@example.com', lang: 'en' });
    expect(english.status).toBe(200);
    expect(english.body).toMatchObject({ email: 'client.en@example.com', lang: 'en', is_sent: false });
    const polish = await addClient(api, user, r.id, 'client.pl@example.com');
    expect(polish).toMatchObject({ lang: 'pl' });
    const list = (await api.http.get(`/api/v1/research/${r.id}/emails`).set(auth(user))).body.data;
    expect(Object.fromEntries(list.map((e: { email: string; lang: string }) => [e.email, e.lang]))).toEqual({
      'client.en@example.com': 'en',
      'client.pl@example.com': 'pl',
    });

    await api.http.post(`/api/v1/research/${r.id}/emails/send`).set(auth(user)).expect(200);
    const en = (await smtp.next((m) => m.to.includes('client.en@example.com'), 'the English invitation')).parsed;
    expect(en.subject).toBe('Invitation to watch the test: Door EI2 60');
    expect(en.text).toContain('you are invited to watch the test “Door EI2 60” live.');
    expect(en.text).toContain('Start: 15 January 2026 at 09:00. End: 15 January 2026 at 11:00 (Polish time).');
    expect(en.html).toContain('<html lang="en">');
    expect(en.html).toContain('Watch the test');
    expect(en.text).not.toContain('Zaproszenie');
    const pl = (await smtp.next((m) => m.to.includes('client.pl@example.com'), 'the Polish invitation')).parsed;
    expect(pl.subject).toBe('Zaproszenie do obserwacji badania: Door EI2 60');
    expect(pl.text).toContain('Rozpoczęcie: 15 stycznia 2026 09:00');
  });

  it('refuses a language other than pl or en with a 422 naming lang, and adds nothing', async () => {
    const r = await createResearch(api, user);
    for (const lang of ['de', '', null, 1]) {
      const res = await api.http
        .post('/api/v1/research/emails')
        .set(auth(user))
        .send({ research_id: r.id, email: 'lang@example.com', lang });
      expect([lang, res.status]).toEqual([lang, 422]);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(['body', 'lang']);
    }
    expect((await api.http.get(`/api/v1/research/${r.id}/emails`).set(auth(user))).body.data).toEqual([]);
  });

  it('keeps is_sent false and answers 502 when the mail server refuses', async () => {
    const r = await createResearch(api, user);
    smtp.refuse.add('bounce@example.com');
    const record = await addClient(api, user, r.id, 'bounce@example.com');
    const res = await api.http.post(`/api/v1/research/emails/${record.id}/send`).set(auth(user));
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/bounce@example\.com/);
    expect((await api.http.get(`/api/v1/research/emails/${record.id}`).set(auth(user))).body.is_sent).toBe(false);
  });

  it('sends every unsent invitation at once, and marks those accepted even if one fails', async () => {
    const r = await createResearch(api, user);
    const a = await addClient(api, user, r.id, 'a@example.com');
    const b = await addClient(api, user, r.id, 'b@example.com');
    smtp.refuse.add('c@example.com');
    await addClient(api, user, r.id, 'c@example.com');
    await api.http.post(`/api/v1/research/emails/${a.id}/send`).set(auth(user)).expect(200);
    await smtp.next((m) => m.to.includes('a@example.com'), 'the invitation to a');

    const res = await api.http.post(`/api/v1/research/${r.id}/emails/send`).set(auth(user));
    expect(res.status).toBe(502);
    expect(res.body.detail).toContain('c@example.com');
    await smtp.next((m) => m.to.includes('b@example.com'), 'the invitation to b');
    const list = (await api.http.get(`/api/v1/research/${r.id}/emails`).set(auth(user))).body.data;
    expect(Object.fromEntries(list.map((e: { email: string; is_sent: boolean }) => [e.email, e.is_sent]))).toEqual({
      'a@example.com': true,
      'b@example.com': true,
      'c@example.com': false,
    });
    // a was not sent twice, c was never accepted
    expect(smtp.received.filter((m) => m.to.includes('a@example.com'))).toHaveLength(1);
    expect(smtp.received.filter((m) => m.to.includes('c@example.com'))).toHaveLength(0);
    expect(b.id).not.toBe(a.id);
  });

  it('refuses the same address twice in one research, whatever its letter case', async () => {
    const r = await createResearch(api, user);
    await addClient(api, user, r.id, 'twice@example.com');
    const dup = await api.http
      .post('/api/v1/research/emails')
      .set(auth(user))
      .send({ research_id: r.id, email: 'TWICE@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toMatch(/already/);
    const bad = await api.http
      .post('/api/v1/research/emails')
      .set(auth(user))
      .send({ research_id: r.id, email: 'not-an-address' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'email']);
  });

  it('gives a changed address a new code, and deleting a record revokes its access', async () => {
    const r = await createResearch(api, user);
    const rec = await addClient(api, user, r.id, 'old@example.com');
    const viewer = (await api.http.post(`/api/v1/research/${r.id}/viewer-token`).send({ code: rec.id })).body
      .access_token;
    const changed = await api.http
      .put(`/api/v1/research/emails/${rec.id}`)
      .set(auth(user))
      .send({ email: 'new@example.com' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ email: 'new@example.com', is_sent: false });
    expect(changed.body.id).not.toBe(rec.id);
    // The old code, and the token exchanged for it, no longer open anything.
    expect((await api.http.post(`/api/v1/research/${r.id}/viewer-token`).send({ code: rec.id })).status).toBe(403);
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(viewer))).status).toBe(403);

    const fresh = (await api.http.post(`/api/v1/research/${r.id}/viewer-token`).send({ code: changed.body.id })).body
      .access_token;
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(fresh))).status).toBe(200);
    await api.http.delete(`/api/v1/research/emails/${changed.body.id}`).set(auth(user)).expect(200);
    expect((await api.http.get(`/api/v1/research/${r.id}`).set(auth(fresh))).status).toBe(403);
  });
});
