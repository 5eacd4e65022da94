import type request from 'supertest';

/** The first superuser every test API (and benchmark API) is started with. */
export const SUPERUSER = { email: 'admin@example.com', password: 'admin-password-1' };

/** A bearer token for the account, through the real login route (of an in-process API, or `{ http: request(url) }`). */
export async function login(
  api: { http: ReturnType<typeof request> },
  email: string,
  password: string,
): Promise<string> {
  const res = await api.http.post('/api/v1/login/access-token').type('form').send({ username: email, password });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}
