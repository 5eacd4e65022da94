// A NUL character (U+0000) in any text of a JSON body, tried as a stranger and as staff would: PostgreSQL's
// text cannot store one, so without the check at the edge (core/validation.ts) the write fails as a 500.
import { UserEntity } from '@furnace/db';
import { login, researchBody, SUPERUSER } from '@furnace/testing';
import { createResearch } from '../factories';
import { auth, newUser, startTestApi, type TestApi } from '../harness';

const NUL = '\u0000';

describe('security: a NUL character in a JSON body', () => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startTestApi();
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
  });
  afterAll(() => api?.close());

  it('an anonymous sign-up with one in full_name is a 422 naming the field, and no account is made', async () => {
    const stranger = newUser({ full_name: `Jan${NUL}Kowalski` });
    const res = await api.http.post('/api/v1/users/signup').send(stranger);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        { loc: ['body', 'full_name'], msg: 'must not contain a NUL character (U+0000)', type: 'string_nul_character' },
      ],
    });
    expect(await api.dataSource.getRepository(UserEntity).findOneBy({ email: stranger.email })).toBeNull();
    // The same sign-up without it goes through.
    expect((await api.http.post('/api/v1/users/signup').send({ ...stranger, full_name: 'Jan Kowalski' })).status).toBe(
      200,
    );
  });

  it("staff's new research with one in its name is a 422 and nothing is created", async () => {
    const before = (await api.http.get('/api/v1/research/').set(auth(admin))).body.count as number;
    const res = await api.http
      .post('/api/v1/research/')
      .set(auth(admin))
      .send(researchBody({ name: `Ściana${NUL}.pdf` }));
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], type: 'string_nul_character' })]);
    expect((await api.http.get('/api/v1/research/').set(auth(admin))).body.count).toBe(before);
    // A query's text is refused the same way.
    const listed = await api.http.get('/api/v1/research/?include_archived=true%00').set(auth(admin));
    expect(listed.status).toBe(422);
    expect(listed.body.detail).toEqual([
      expect.objectContaining({ loc: ['query', 'include_archived'], type: 'string_nul_character' }),
    ]);
  });

  it("staff's change of a research with one is a 422 and the research stays as it was", async () => {
    const research = await createResearch(api, admin);
    const res = await api.http
      .put(`/api/v1/research/${research.id}`)
      .set(auth(admin))
      .send({ name: `x${NUL}` });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'] })]);
    expect((await api.http.get(`/api/v1/research/${research.id}`).set(auth(admin))).body.name).toBe(research.name);
  });
});
