import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ThrottlerStorageService } from '@nestjs/throttler';
import type { DataSource } from 'typeorm';
import { type Bus, createBus } from '@furnace/bus';
import { type ApiConfig, loadStandaloneConfig } from '@furnace/config';
import { createDataSource } from '@furnace/db';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import type { FurnaceLogger } from '@furnace/logger';
import { login, SUPERUSER } from '@furnace/testing';
import { createApiApp, listenApi } from '../src/app';
import type { KeeperOptions } from '../src/criteria/criteria-keeper';
import type { AlarmOptions } from '../src/alarms/alarm-options';

export interface TestApi {
  app: NestExpressApplication;
  http: ReturnType<typeof request>;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  config: ApiConfig;
  dataSource: DataSource;
  bus: Bus;
  db: TestDatabase;
  close(): Promise<void>;
}

/**
 * The API as it runs, listening on a free port, against a fresh database of its own (TEST_DATABASE_URL's
 * server, or embedded PGlite) and the bus TEST_REDIS_URL names (in-process when unset).
 */
export async function startTestApi(
  env: Record<string, string> = {},
  options: {
    db?: TestDatabase;
    bus?: Bus;
    dashboardDir?: string;
    logger?: FurnaceLogger;
    criteriaKeeper?: Partial<KeeperOptions>;
    alarms?: Partial<AlarmOptions>;
  } = {},
): Promise<TestApi> {
  const db = options.db ?? (await createTestDatabase());
  // The API in one process, as inside `npm start` (the bus in-process unless TEST_REDIS_URL is set).
  const config = loadStandaloneConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'furnace-api-')),
    DATABASE_URL: db.url,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    FIRST_SUPERUSER: SUPERUSER.email,
    FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
    FRONTEND_HOST: 'http://dashboard.test',
    REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    LOGIN_RATE_LIMIT: '1000',
    SIGNUP_RATE_LIMIT: '1000',
    // Tests open many streams with one token; the caps are tested with their own (security/stream-limits.int-spec.ts).
    LIVE_STREAMS_PER_USER: '1000',
    LIVE_STREAMS_PER_CLIENT: '1000',
    ...env,
  });
  const dataSource = createDataSource({ url: db.url, poolSize: 4 });
  await dataSource.initialize();
  const bus = options.bus ?? (await createBus(config.redisUrl));
  // One API in one process: its own throttle counters, as a single instance has (the counters shared
  // in Redis by several instances are tested with built processes, security/throttles.e2e-spec.ts).
  const app = await createApiApp(
    {
      config,
      dataSource,
      bus,
      throttlerStorage: new ThrottlerStorageService(),
      criteriaKeeper: options.criteriaKeeper,
      alarms: options.alarms,
    },
    { dashboardDir: options.dashboardDir ?? join(tmpdir(), 'no-dashboard'), logger: options.logger },
  );
  // As the api and the standalone start it (its backlog, its keep-alive).
  await listenApi(app, 0, '127.0.0.1');
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  return {
    app,
    http: request(app.getHttpServer()),
    url: `http://127.0.0.1:${port}`,
    config,
    dataSource,
    bus,
    db,
    async close() {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
      if (!options.bus) await bus.close();
      await dataSource.destroy();
      if (!options.db) await db.drop();
    },
  };
}

let seq = 0;
/** Factory: a new account's fields (unique e-mail). */
export function newUser(overrides: Partial<{ email: string; password: string; full_name: string }> = {}) {
  seq += 1;
  return {
    email: `user${seq}-${Date.now().toString(36)}@example.com`,
    password: `password-${seq}-ok`,
    full_name: `Test User ${seq}`,
    ...overrides,
  };
}

/**
 * Signs a new ordinary user up, has the superuser activate the account (a signed-up account waits
 * for approval) and returns their credentials and token.
 */
export async function signUpUser(api: TestApi, overrides: Parameters<typeof newUser>[0] = {}) {
  const user = newUser(overrides);
  const res = await api.http.post('/api/v1/users/signup').send(user);
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id as string;
  if (!res.body.is_active) {
    const admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    const approved = await api.http.patch(`/api/v1/users/${id}`).set(auth(admin)).send({ is_active: true });
    if (approved.status !== 200)
      throw new Error(`activation failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  }
  return { ...user, id, token: await login(api, user.email, user.password) };
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
