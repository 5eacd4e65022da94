import { createHash } from 'node:crypto';
import type { OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * One atomic step of a fixed-window counter, run by Redis so that every API instance counts into the
 * same window. KEYS: the counter. ARGV: the window in ms. Returns { hits, ms until the window ends }.
 */
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
local windowMs = redis.call('PTTL', KEYS[1])
if windowMs < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  windowMs = tonumber(ARGV[1])
end
return { hits, windowMs }
`;

const PREFIX = 'furnace:throttle:';

/**
 * Throttler counters in Redis, shared by every API instance (REDIS_URL): N instances behind a
 * balancer allow the same number of attempts as one. The embedded mode (no REDIS_URL) keeps the
 * library's in-memory storage. A window is fixed: it starts with its first attempt, and past the limit
 * every attempt is refused until it ends; the limit is the caller's, so a counter can be shared safely.
 * Redis unreachable: the request fails (500) rather than going uncounted.: the request fails (500) rather than going uncounted.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly redis: Redis;

  private readonly prefix: string;

  /**
   * `deployment` names what the counters belong to (the database: its host, port and name, never its
   * credentials): the instances of one deployment share them, another deployment or a test on the
   * same Redis does not count into them.
   */
  constructor(url: string, deployment: string) {
    this.prefix = `${PREFIX}${createHash('sha256').update(deployment).digest('hex').slice(0, 16)}:`;
    this.redis = new Redis(url, { connectionName: 'furnace-throttle', maxRetriesPerRequest: 2, lazyConnect: true });
    this.redis.defineCommand('furnaceThrottle', { numberOfKeys: 1, lua: INCREMENT });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const run = (this.redis as unknown as Record<string, (...args: (string | number)[]) => Promise<[number, number]>>)
      .furnaceThrottle!;
    const [hits, windowMs] = await run.call(this.redis, `${this.prefix}${throttlerName}:${key}`, ttl);
    const seconds = Math.max(1, Math.ceil(windowMs / 1000));
    // Past the limit the caller waits for the window to end (the routes' block equals their window).
    return { totalHits: hits, timeToExpire: seconds, isBlocked: hits > limit, timeToBlockExpire: seconds };
  }

  async onModuleDestroy(): Promise<void> {
    if (this.redis.status === 'wait' || this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** What the instances of one deployment share: the database's host, port and name, without credentials. */
export function deploymentOf(databaseUrl: string): string {
  try {
    const u = new URL(databaseUrl);
    return `${u.hostname}:${u.port}${u.pathname}`;
  } catch {
    return databaseUrl;
  }
}
