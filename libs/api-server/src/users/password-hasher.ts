import { Inject, Injectable, Optional } from '@nestjs/common';
import * as argon2 from 'argon2';
import pLimit from 'p-limit';
import { Gauge } from 'prom-client';
import type { ApiConfig } from '@furnace/config';
import { APP_CONFIG } from '../core/tokens';
import { metricsRegistry, sharedMetric } from '../metrics/registry';

const running = sharedMetric(
  'furnace_password_hashes_running',
  () =>
    new Gauge({
      name: 'furnace_password_hashes_running',
      help: 'argon2 hashes and checks being computed now',
      registers: [metricsRegistry],
    }),
);
const waiting = sharedMetric(
  'furnace_password_hashes_waiting',
  () =>
    new Gauge({
      name: 'furnace_password_hashes_waiting',
      help: 'argon2 hashes and checks queued behind PASSWORD_HASH_CONCURRENCY',
      registers: [metricsRegistry],
    }),
);
const peak = sharedMetric(
  'furnace_password_hashes_running_max',
  () =>
    new Gauge({
      name: 'furnace_password_hashes_running_max',
      help: 'The most argon2 computations ever running at once in this process',
      registers: [metricsRegistry],
    }),
);
let peakValue = 0;

/**
 * argon2id with the library's defaults (64 MiB, 3 passes): slow enough to make guessing expensive.
 * At most PASSWORD_HASH_CONCURRENCY computations run at once; the rest wait their turn, so a flood of
 * sign-ups or logins costs time, never more than N × 64 MiB of memory.
 */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;
  private readonly limit: pLimit.Limit;
  private active = 0;

  constructor(@Optional() @Inject(APP_CONFIG) config?: Pick<ApiConfig, 'passwordHashConcurrency'>) {
    this.limit = pLimit(config?.passwordHashConcurrency ?? 2);
  }

  hash(password: string): Promise<string> {
    return this.bounded(() => argon2.hash(password, { type: argon2.argon2id }));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await this.bounded(() => argon2.verify(hash, password));
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check, so a missing account cannot be told apart by timing. */
  async verifyNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('not-a-real-password');
    await this.verify(await this.dummy, password);
    return false;
  }

  private bounded<T>(work: () => Promise<T>): Promise<T> {
    waiting.inc();
    return this.limit(async () => {
      waiting.dec();
      this.active++;
      running.inc();
      if (this.active > peakValue) {
        peakValue = this.active;
        peak.set(peakValue);
      }
      try {
        return await work();
      } finally {
        this.active--;
        running.dec();
      }
    });
  }
}
