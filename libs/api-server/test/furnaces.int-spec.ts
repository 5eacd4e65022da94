// The lab's furnaces over HTTP (docs/behaviour.md, "Furnaces"): who may manage and read them, what bad input
// gets, and a test scheduled on a furnace — its defaults, and the refusal of two tests at once on one furnace.
import { DAQ_REVOCATIONS_CHANNEL, findDaqCredential, queryOn, verifyDaqPassword } from '@furnace/db';
import { login, researchBody, SUPERUSER } from '@furnace/testing';
import { addClient, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

const FURNACES = '/api/v1/furnaces';
const RESEARCH = '/api/v1/research';
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

describe('furnaces', () => {
  let api: TestApi;
  let admin: string;
  let staff: string;
  let seq = 0;
  const newFurnace = (overrides: object = {}) => {
    seq += 1;
    return { name: `Piec ${seq}`, code: `f${seq}`, ...overrides };
  };
  const create = async (overrides: object = {}) => {
    const res = await api.http.post(FURNACES).set(auth(admin)).send(newFurnace(overrides));
    expect(res.status).toBe(200);
    return res.body as { id: string; name: string; code: string };
  };
  const auditOf = async (id: string) =>
    (
      await api.http.get('/api/v1/audit').query({ actor: SUPERUSER.email, per_page: 100 }).set(auth(admin))
    ).body.data.filter((e: { entity: string; entity_id: string }) => e.entity === 'furnace' && e.entity_id === id);

  beforeAll(async () => {
    api = await startTestApi();
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    staff = (await signUpUser(api)).token;
  });
  afterAll(() => api?.close());

  it('lets a superuser create, change and delete a furnace, with defaults, each change in the audit trail', async () => {
    const res = await api.http
      .post(FURNACES)
      .set(auth(admin))
      .send({ name: '  Piec pionowy  ', code: 'pion-1', pressure_target_pa: 20, pressure_tolerance_pa: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Piec pionowy',
      code: 'pion-1',
      scan_period_s: 1,
      standard: 'EN_1363_1',
      heating_curve: 'iso834',
      pressure_target_pa: 20,
      pressure_tolerance_pa: 3,
    });
    const id = res.body.id as string;
    const changed = await api.http
      .patch(`${FURNACES}/${id}`)
      .set(auth(admin))
      .send({ scan_period_s: 2, heating_curve: 'hydrocarbon' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      code: 'pion-1',
      scan_period_s: 2,
      heating_curve: 'hydrocarbon',
      pressure_target_pa: 20,
    });
    expect((await api.http.get(`${FURNACES}/${id}`).set(auth(staff))).body).toMatchObject({ scan_period_s: 2 });
    const deleted = await api.http.delete(`${FURNACES}/${id}`).set(auth(admin));
    expect(deleted.status).toBe(200);
    expect((await api.http.get(`${FURNACES}/${id}`).set(auth(admin))).status).toBe(404);
    const trail = await auditOf(id);
    expect(trail.map((e: { action: string }) => e.action).sort()).toEqual(['create', 'delete', 'update']);
    const update = trail.find((e: { action: string }) => e.action === 'update');
    expect(update).toMatchObject({
      actor: SUPERUSER.email,
      before: { scan_period_s: 1, heating_curve: 'iso834' },
      after: { scan_period_s: 2, heating_curve: 'hydrocarbon' },
    });
  });

  it("shows staff where alarms go without the webhook URL's path (it may be a secret); superusers see it whole", async () => {
    const url = 'https://hooks.example.com/services/T000/B000/a-secret-path?token=xyz';
    const created = await api.http
      .post(FURNACES)
      .set(auth(admin))
      .send(newFurnace({ webhook_url: url, webhook_secret: 'a-webhook-secret-1234' }));
    expect(created.status).toBe(200);
    expect(created.body.webhook_url).toBe(url);
    const one = await api.http.get(`${FURNACES}/${created.body.id}`).set(auth(staff));
    expect(one.body).toMatchObject({ webhook_url: 'https://hooks.example.com/…', webhook_secret_set: true });
    const listed = (await api.http.get(FURNACES).set(auth(staff))).body.data.find(
      (f: { id: string }) => f.id === created.body.id,
    );
    expect(listed.webhook_url).toBe('https://hooks.example.com/…');
    expect(JSON.stringify(listed)).not.toContain('a-secret-path');
    expect((await api.http.get(`${FURNACES}/${created.body.id}`).set(auth(admin))).body.webhook_url).toBe(url);
  });

  it('lists furnaces by code for staff, and keeps their management to superusers', async () => {
    const b = await create({ code: 'zz-list' });
    const a = await create({ code: 'aa-list' });
    const list = await api.http.get(FURNACES).set(auth(staff));
    expect(list.status).toBe(200);
    const codes = list.body.data.map((f: { code: string }) => f.code);
    expect(codes.indexOf(a.code)).toBeLessThan(codes.indexOf(b.code));
    expect(list.body.count).toBe(list.body.data.length);
    expect((await api.http.post(FURNACES).set(auth(staff)).send(newFurnace())).status).toBe(403);
    expect((await api.http.patch(`${FURNACES}/${a.id}`).set(auth(staff)).send({ name: 'x' })).status).toBe(403);
    expect((await api.http.delete(`${FURNACES}/${a.id}`).set(auth(staff))).status).toBe(403);
    expect((await api.http.get(FURNACES)).status).toBe(401);
    // A client's viewer token reads its own research, never the lab's furnaces.
    const research = await api.http
      .post(`${RESEARCH}/`)
      .set(auth(staff))
      .send(researchBody({ furnace_id: a.id }));
    const client = await addClient(api, staff, research.body.id, `client${seq}@example.com`);
    const viewer = await viewerToken(api, research.body.id, client.id);
    expect((await api.http.get(FURNACES).set(auth(viewer))).status).toBe(403);
    expect((await api.http.get(`${RESEARCH}/${research.body.id}`).set(auth(viewer))).body.furnace_id).toBeNull();
    expect((await api.http.get(`${RESEARCH}/${research.body.id}`).set(auth(staff))).body.furnace_id).toBe(a.id);
  });

  it('refuses bad bodies with the field named, and stores nothing', async () => {
    const before = (await api.http.get(FURNACES).set(auth(admin))).body.count;
    const cases: [object, string[]][] = [
      [newFurnace({ name: '   ' }), ['body', 'name']],
      [newFurnace({ code: 'P1' }), ['body', 'code']],
      [newFurnace({ code: 'lab/+/x' }), ['body', 'code']],
      [newFurnace({ code: '' }), ['body', 'code']],
      [newFurnace({ code: 'a'.repeat(17) }), ['body', 'code']],
      [newFurnace({ scan_period_s: 0 }), ['body', 'scan_period_s']],
      [newFurnace({ scan_period_s: null }), ['body', 'scan_period_s']],
      [newFurnace({ standard: 'ISO_834' }), ['body', 'standard']],
      [newFurnace({ pressure_tolerance_pa: -1 }), ['body', 'pressure_tolerance_pa']],
      [{ ...newFurnace(), owner: 'me' }, ['body', 'owner']],
      // Who is told of its tests' alarms (docs/behaviour.md, "Alarms").
      [newFurnace({ watch_emails: ['not-an-address'] }), ['body', 'watch_emails']],
      [newFurnace({ watch_emails: 'a@example.com' }), ['body', 'watch_emails']],
      [newFurnace({ webhook_url: 'ftp://example.com/x' }), ['body', 'webhook_url']],
      [newFurnace({ webhook_secret: 'short' }), ['body', 'webhook_secret']],
    ];
    for (const [body, loc] of cases) {
      const res = await api.http.post(FURNACES).set(auth(admin)).send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(loc);
    }
    expect((await api.http.get(FURNACES).set(auth(admin))).body.count).toBe(before);
    expect((await api.http.patch(`${FURNACES}/${NO_SUCH_ID}`).set(auth(admin)).send({ name: 'x' })).status).toBe(404);
    expect((await api.http.get(`${FURNACES}/not-a-uuid`).set(auth(admin))).status).toBe(422);
  });

  it("names a research's responsible engineer, refused when no such account is active", async () => {
    const me = (await api.http.get('/api/v1/users/me').set(auth(admin))).body as { id: string };
    const bad = await api.http
      .post('/api/v1/research')
      .set(auth(staff))
      .send(researchBody({ responsible_user_id: NO_SUCH_ID }));
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(['body', 'responsible_user_id']);
    const created = await api.http
      .post('/api/v1/research')
      .set(auth(staff))
      .send(researchBody({ responsible_user_id: me.id }));
    expect(created.status).toBe(200);
    expect(created.body.responsible_user_id).toBe(me.id);
    const cleared = await api.http
      .put(`/api/v1/research/${created.body.id}`)
      .set(auth(staff))
      .send({ responsible_user_id: null });
    expect(cleared.body.responsible_user_id).toBeNull();
  });

  it('refuses a second furnace with the same code, on create and on change', async () => {
    const first = await create();
    const second = await create();
    const dup = await api.http
      .post(FURNACES)
      .set(auth(admin))
      .send(newFurnace({ code: first.code }));
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe(`A furnace with the code "${first.code}" already exists`);
    const renamed = await api.http.patch(`${FURNACES}/${second.id}`).set(auth(admin)).send({ code: first.code });
    expect(renamed.status).toBe(409);
    expect((await api.http.get(`${FURNACES}/${second.id}`).set(auth(admin))).body.code).toBe(second.code);
  });

  it("starts a test on a furnace from the furnace's profile, where the body does not say otherwise", async () => {
    const door = await create({
      standard: 'EN_1634_1',
      heating_curve: 'slow',
      pressure_target_pa: 20,
      pressure_tolerance_pa: 3,
    });
    const res = await api.http
      .post(`${RESEARCH}/`)
      .set(auth(staff))
      .send(researchBody({ furnace_id: door.id, pressure_tolerance_pa: 5 }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      furnace_id: door.id,
      standard: 'EN_1634_1',
      insulation: 'I2',
      heating_curve: 'slow',
      pressure_target_pa: 20,
      pressure_tolerance_pa: 5,
    });
    const none = await api.http
      .post(`${RESEARCH}/`)
      .set(auth(staff))
      .send(researchBody({ furnace_id: NO_SUCH_ID }));
    expect(none.status).toBe(422);
    expect(none.body.detail[0]).toMatchObject({
      loc: ['body', 'furnace_id'],
      msg: `furnace ${NO_SUCH_ID} does not exist`,
    });
  });

  it('refuses two tests at once on one furnace, naming the other, and allows back-to-back tests and other furnaces', async () => {
    const furnace = await create({ name: 'Piec P9' });
    const other = await create();
    const schedule = (from: string, to: string, furnaceId = furnace.id) =>
      api.http
        .post(`${RESEARCH}/`)
        .set(auth(staff))
        .send(researchBody({ name: `Test ${from}`, furnace_id: furnaceId, start_at: from, end_at: to }));
    const first = await schedule('2031-05-04T08:00:00Z', '2031-05-04T12:00:00Z');
    expect(first.status).toBe(200);
    const clash = await schedule('2031-05-04T11:00:00Z', '2031-05-04T14:00:00Z');
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe(
      'Furnace "Piec P9" already has a test at that time: "Test 2031-05-04T08:00:00Z" (2031-05-04T08:00:00.000Z – 2031-05-04T12:00:00.000Z). Two tests on one furnace may not overlap.',
    );
    expect((await schedule('2031-05-04T12:00:00Z', '2031-05-04T14:00:00Z')).status).toBe(200); // [start, end): back to back
    expect((await schedule('2031-05-04T09:00:00Z', '2031-05-04T10:00:00Z', other.id)).status).toBe(200);
    // Moving a test onto the furnace's busy hours, or moving a scheduled one into another's, is refused the same way.
    const free = await schedule('2031-05-05T08:00:00Z', '2031-05-05T09:00:00Z');
    const moved = await api.http
      .put(`${RESEARCH}/${free.body.id}`)
      .set(auth(staff))
      .send({ start_at: '2031-05-04T10:00:00Z', end_at: '2031-05-04T10:30:00Z' });
    expect(moved.status).toBe(409);
    expect(moved.body.detail).toContain('"Test 2031-05-04T08:00:00Z"');
    expect((await api.http.get(`${RESEARCH}/${free.body.id}`).set(auth(staff))).body.start_at).toBe(
      '2031-05-05T08:00:00.000Z',
    );
    const third = await create();
    const elsewhere = await schedule('2031-05-04T09:00:00Z', '2031-05-04T10:00:00Z', third.id);
    const onto = await api.http
      .put(`${RESEARCH}/${elsewhere.body.id}`)
      .set(auth(staff))
      .send({ furnace_id: furnace.id });
    expect(onto.status).toBe(409);
    // An archived test leaves the schedule; it cannot come back over a test planned since.
    expect((await api.http.post(`${RESEARCH}/${first.body.id}/archive`).set(auth(admin))).status).toBe(200);
    const replacement = await schedule('2031-05-04T08:00:00Z', '2031-05-04T12:00:00Z');
    expect(replacement.status).toBe(200);
    const back = await api.http.post(`${RESEARCH}/${first.body.id}/unarchive`).set(auth(admin));
    expect(back.status).toBe(409);
    expect(back.body.detail).toContain(`"Test 2031-05-04T08:00:00Z"`);
  });

  it('keeps a furnace that tests were scheduled on', async () => {
    const furnace = await create({ name: 'Piec z historią' });
    await api.http
      .post(`${RESEARCH}/`)
      .set(auth(staff))
      .send(researchBody({ furnace_id: furnace.id, start_at: '2032-01-01T08:00:00Z', end_at: '2032-01-01T09:00:00Z' }));
    const res = await api.http.delete(`${FURNACES}/${furnace.id}`).set(auth(admin));
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(
      'Furnace "Piec z historią" has 1 test scheduled on it (their record names it): it cannot be deleted',
    );
    expect((await api.http.get(`${FURNACES}/${furnace.id}`).set(auth(admin))).status).toBe(200);
  });

  describe('its DAQ\'s credential (docs/behaviour.md, "DAQ credentials")', () => {
    const issue = (id: string, token = admin) => api.http.post(`${FURNACES}/${id}/daq-credential`).set(auth(token));

    it('is issued by a superuser only, shown once, and kept as a hash', async () => {
      const furnace = await create({ code: 'cred-1' });
      expect((await issue(furnace.id, staff)).status).toBe(403);
      expect((await api.http.post(`${FURNACES}/${furnace.id}/daq-credential`)).status).toBe(401);
      expect((await issue(NO_SUCH_ID)).status).toBe(404);
      expect((await issue('not-a-uuid')).status).toBe(422);
      expect((await api.http.get(`${FURNACES}/${furnace.id}`).set(auth(staff))).body.daq_credential).toBeNull();

      const res = await issue(furnace.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        username: 'daq-cred-1',
        password: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        topic: 'lab/cred-1/data',
        issued_at: expect.any(String),
        rotated: false,
      });
      const password = res.body.password as string;
      // Only the hash is stored, and it verifies the password given.
      const stored = await findDaqCredential(queryOn(api.dataSource), 'daq-cred-1');
      expect(stored).toMatchObject({ furnaceCode: 'cred-1' });
      expect(stored!.passwordHash).not.toContain(password);
      expect(await verifyDaqPassword(password, stored!.passwordHash)).toBe(true);
      expect(await verifyDaqPassword(`${password}x`, stored!.passwordHash)).toBe(false);

      // Staff see that it exists and when it was issued; the secret never again.
      for (const path of [FURNACES, `${FURNACES}/${furnace.id}`]) {
        const read = await api.http.get(path).set(auth(staff));
        expect(read.text).toContain('"daq_credential":{"username":"daq-cred-1","issued_at":');
        expect(read.text).not.toContain(password);
        expect(read.text).not.toContain(stored!.passwordHash);
      }
      const entry = (await auditOf(furnace.id)).find((e: { action: string }) => e.action === 'daq-credential');
      expect(entry).toMatchObject({ before: null, after: { daq_username: 'daq-cred-1' } });
      expect(JSON.stringify(entry)).not.toContain(password);
    });

    it('is rotated by issuing it again: the old password stops working and its DAQ is told to go', async () => {
      const furnace = await create({ code: 'cred-2' });
      const first = (await issue(furnace.id)).body;
      const revoked: string[] = [];
      const unsubscribe = await api.bus.subscribe(DAQ_REVOCATIONS_CHANNEL, (m) => revoked.push(m));
      try {
        const second = await issue(furnace.id);
        expect(second.body).toMatchObject({ username: 'daq-cred-2', rotated: true });
        expect(second.body.password).not.toBe(first.password);
        const stored = await findDaqCredential(queryOn(api.dataSource), 'daq-cred-2');
        expect(await verifyDaqPassword(first.password, stored!.passwordHash)).toBe(false);
        expect(await verifyDaqPassword(second.body.password, stored!.passwordHash)).toBe(true);
        await new Promise((r) => setTimeout(r, 200));
        expect(revoked).toEqual(['daq-cred-2']);

        // A new code renames it (its topic names the code) and closes its connections too.
        const renamed = await api.http.patch(`${FURNACES}/${furnace.id}`).set(auth(admin)).send({ code: 'cred-2b' });
        expect(renamed.body.daq_credential).toMatchObject({ username: 'daq-cred-2b' });
        expect(await findDaqCredential(queryOn(api.dataSource), 'daq-cred-2')).toBeNull();
        // Deleting the furnace deletes its credential.
        expect((await api.http.delete(`${FURNACES}/${furnace.id}`).set(auth(admin))).status).toBe(200);
        expect(await findDaqCredential(queryOn(api.dataSource), 'daq-cred-2b')).toBeNull();
        await new Promise((r) => setTimeout(r, 200));
        expect(revoked).toEqual(['daq-cred-2', 'daq-cred-2', 'daq-cred-2b']);
      } finally {
        await unsubscribe();
      }
    });
  });
});
