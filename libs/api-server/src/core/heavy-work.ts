import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import type { ApiConfig } from '@furnace/config';
import type { Principal } from '../auth/principal';
import { metricsRegistry, sharedMetric } from '../metrics/registry';
import { APP_CONFIG } from './tokens';

/** What runs through the limiter: the history exports, the PDF reports (the test report, the classification report), the raw data's check and the archive's export and import. */
type HeavyKind = 'csv' | 'xlsx' | 'report' | 'classification' | 'verify' | 'archive' | 'import';

/** Seconds a refused caller is told to wait (Retry-After): about what a typical export or report takes. */
const HEAVY_RETRY_AFTER_S = 5;

/** The 429 of a limited route, for its OpenAPI description. */
export const HEAVY_WORK_REFUSED =
  'Another export or report of this caller is still being made, or this API instance is making as many as it makes at once; Retry-After (seconds) says when to try again';

const registers = [metricsRegistry];
const KINDS: HeavyKind[] = ['csv', 'xlsx', 'report', 'classification', 'verify', 'archive', 'import'];

const heavyMetrics = {
  running: sharedMetric('furnace_heavy_work_running', () => {
    const g = new Gauge({
      name: 'furnace_heavy_work_running',
      help: 'Exports and reports being made by this process',
      labelNames: ['kind'] as const,
      registers,
    });
    for (const kind of KINDS) g.set({ kind }, 0);
    return g;
  }),
  refused: sharedMetric('furnace_heavy_work_refused_total', () => {
    const c = new Counter({
      name: 'furnace_heavy_work_refused_total',
      help: 'Exports and reports refused with 429: caller (one of theirs was running), instance (the instance was at HEAVY_WORK_CONCURRENCY)',
      labelNames: ['kind', 'reason'] as const,
      registers,
    });
    for (const kind of KINDS) for (const reason of ['caller', 'instance']) c.inc({ kind, reason }, 0);
    return c;
  }),
  abandoned: sharedMetric('furnace_heavy_work_abandoned_total', () => {
    const c = new Counter({
      name: 'furnace_heavy_work_abandoned_total',
      help: 'Exports and reports stopped because their client went away',
      labelNames: ['kind'] as const,
      registers,
    });
    for (const kind of KINDS) c.inc({ kind }, 0);
    return c;
  }),
};

/** Who a heavy request counts against: a staff user, or a client's e-mail record (their code, whatever credential carried it). */
export function heavyCaller(principal: Principal): string {
  return principal.kind === 'user' ? `user:${principal.user.id}` : `email:${principal.emailId}`;
}

/** The part of the HTTP response the limiter watches: whether its client is still there. */
export interface WatchedResponse {
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  setHeader(name: string, value: string): unknown;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/** The reason of the signal a heavy work receives when its client goes away. */
export class ClientGone extends Error {
  constructor() {
    super('The client went away');
    this.name = 'ClientGone';
  }
}

/**
 * The limiter of the work one request can make the API do at length — the history exports (CSV,
 * XLSX) and the PDF report: at most HEAVY_WORK_CONCURRENCY of them at once on this instance and one
 * at a time per caller. A request over either cap is answered at once with 429, a detail saying which
 * and `Retry-After`, never queued: a queue would hold connections and memory for callers who may be
 * gone. The work receives an AbortSignal that fires when the client goes away (the response closes
 * before it is finished); it must stop reading then, and its slot is free as soon as it returns.
 * Per instance, in memory: N instances allow N × the cap, and a caller one export per instance.
 */
@Injectable()
export class HeavyWork {
  private readonly limit: number;
  private active = 0;
  private readonly callers = new Set<string>();

  constructor(@Inject(APP_CONFIG) config: Pick<ApiConfig, 'heavyWorkConcurrency'>) {
    this.limit = config.heavyWorkConcurrency;
  }

  /** Exports and reports running now on this instance. */
  get running(): number {
    return this.active;
  }

  /**
   * Runs `work` in a slot of its own, or throws the 429 (with Retry-After set on `res`) when none is
   * free. The slot is held until `work` settles. A failure after the client has gone is nobody's to
   * answer: it resolves undefined (counted in furnace_heavy_work_abandoned_total).
   */
  async run<T>(
    kind: HeavyKind,
    caller: string,
    res: WatchedResponse,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | undefined> {
    const reason = this.callers.has(caller) ? 'caller' : this.active >= this.limit ? 'instance' : null;
    if (reason !== null) {
      heavyMetrics.refused.inc({ kind, reason });
      res.setHeader('Retry-After', String(HEAVY_RETRY_AFTER_S));
      throw new HttpException(
        {
          detail:
            reason === 'caller'
              ? 'Another export or report of yours is still being prepared: one at a time per account. Try again when it has finished.'
              : `The server is preparing as many exports and reports as it makes at once (${this.limit}). Try again in a few seconds.`,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    this.active += 1;
    this.callers.add(caller);
    heavyMetrics.running.inc({ kind });
    const controller = new AbortController();
    // 'close' after the last byte was handed over is the normal end; before it, the client left.
    const onClose = () => {
      if (!res.writableFinished) controller.abort(new ClientGone());
    };
    res.once('close', onClose);
    if (res.destroyed) onClose();
    try {
      return await work(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      throw error;
    } finally {
      res.off('close', onClose);
      if (controller.signal.aborted) heavyMetrics.abandoned.inc({ kind });
      this.active -= 1;
      this.callers.delete(caller);
      heavyMetrics.running.dec({ kind });
    }
  }
}
