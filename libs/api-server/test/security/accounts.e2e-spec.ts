// "The default superuser password" of the security model, against the built processes as they start
// in a deployment: the API (and `npm start`'s process in production) refuses the well-known password.
import { createDataSource } from '@furnace/db';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { missingBuild, startApp } from '@furnace/testing';

describe('security: accounts (built processes)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('is refused at start-up with DATABASE_URL set or NODE_ENV=production, naming the variable', async () => {
    const missing = missingBuild(['api', 'standalone']);
    if (missing) throw new Error(missing);
    const base = {
      SECRET_KEY: 'startup-secret-key-that-is-long-enough-0123456789',
      FIRST_SUPERUSER: 'root@example.com',
    };
    const attempts = [
      startApp(
        'api',
        { ...base, DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379' },
        { readyTimeoutMs: 20_000 },
      ),
      startApp('standalone', { ...base, NODE_ENV: 'production', MQTT_PORT: '0' }, { readyTimeoutMs: 20_000 }),
    ];
    for (const attempt of await Promise.allSettled(attempts)) {
      if (attempt.status === 'fulfilled') {
        await attempt.value.stop();
        throw new Error(`${attempt.value.app} started with the default superuser password`);
      }
      expect(String(attempt.reason)).toMatch(/exited \(1\) before it was ready/);
      expect(String(attempt.reason)).toMatch(
        /FIRST_SUPERUSER_PASSWORD: must be set to a password of your own \(not "changethis"\)/,
      );
    }
    // Nothing was created by the refused starts.
    const dataSource = await createDataSource({
      url: db.url,
      poolSize: 1,
    }).initialize();
    try {
      expect(await dataSource.query("SELECT 1 FROM users WHERE email = 'root@example.com'")).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
