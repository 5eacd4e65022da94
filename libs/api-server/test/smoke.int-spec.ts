import { login, SUPERUSER } from '@furnace/testing';
import { auth, startTestApi, type TestApi } from './harness';

describe('API start-up', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api?.close());

  it('answers health once the database answers, and the first superuser can sign in', async () => {
    const health = await api.http.get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body.info.database.status).toBe('up');
    const token = await login(api, SUPERUSER.email, SUPERUSER.password);
    const me = await api.http.get('/api/v1/users/me').set(auth(token));
    expect(me.body).toMatchObject({ email: SUPERUSER.email, is_superuser: true, is_active: true });
  });
});
