import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { ClassificationData } from './classification-pdf';
import type { ReportData } from './report-pdf';
import type { RenderDocument, RenderReply, RenderRequest } from './report-worker';

/** Options of the renderer (tests shorten the idle time). */
const REPORT_RENDERER_OPTIONS = Symbol('REPORT_RENDERER_OPTIONS');

export interface ReportRendererOptions {
  /** The worker ends after this long without a report, ms (its ~35 MB of pdfkit, fontkit and ECharts with it). */
  idleMs: number;
}

/** A rendered report: the PDF's bytes, and the thread that laid it out (never the main thread's 0). */
export interface RenderedReport {
  pdf: Buffer;
  threadId: number;
}

interface Job {
  id: number;
  document: RenderDocument;
  resolve(result: RenderedReport): void;
  reject(error: unknown): void;
  /** Settled already (aborted): a result that still arrives is discarded. */
  done: boolean;
  cleanup(): void;
}

/**
 * How the worker is started, whether this module runs compiled (libs/api-server/dist, as `node
 * apps/api/dist/main.js` runs it) or from its TypeScript sources (jest's @swc/jest, the benchmarks'
 * @swc-node/register), where report-worker.js does not exist: the worker is started from this script,
 * which, for a .ts file, first registers @swc-node/register with tsconfig.spec.json (its paths map
 * `@furnace/*` to libs/* /src as jest's moduleNameMapper does; compiled, `@furnace/*` resolves through
 * node_modules to each library's dist/). A worker does not share jest's module registry, hence its own hook.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.register && !require.extensions['.ts']) {
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || workerData.project;
  require(workerData.register);
}
require(workerData.file);
`;

function workerData(): { file: string; register: string | null; project: string } {
  const ext = extname(__filename);
  const file = join(__dirname, `report-worker${ext}`);
  const ts = ext === '.ts';
  // libs/api-server/src/report → the repository's root.
  return {
    file,
    register: ts ? require.resolve('@swc-node/register') : null,
    project: join(__dirname, '..', '..', '..', '..', 'tsconfig.spec.json'),
  };
}

/**
 * Lays PDF reports out in a worker thread, off the event loop that serves the live streams (docs/performance.md,
 * "PDF report"). One worker, started by the first report, kept while reports come and ended after
 * `idleMs` without one and when the app closes; reports go to it one at a time, in order (HeavyWork
 * already caps how many a process makes at once). A report whose signal fires while queued is dropped;
 * one already rendering finishes in the worker and its result is discarded. A worker that dies takes
 * its current report with it (an error) and is replaced for the next one.
 */
@Injectable()
export class ReportRenderer implements OnModuleDestroy {
  private readonly logger = new Logger(ReportRenderer.name);
  private readonly idleMs: number;
  private worker: Worker | null = null;
  private current: Job | null = null;
  private readonly queue: Job[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  private seq = 0;
  private closed = false;

  constructor(@Optional() @Inject(REPORT_RENDERER_OPTIONS) options?: Partial<ReportRendererOptions>) {
    this.idleMs = options?.idleMs ?? 60_000;
  }

  /** Whether a worker is running now (started, not yet ended). */
  get started(): boolean {
    return this.worker !== null;
  }

  /** The report as a PDF, rendered in the worker. Rejects with the signal's reason when it fires first. */
  render(data: ReportData, signal?: AbortSignal): Promise<RenderedReport> {
    return this.submit({ kind: 'report', data }, signal);
  }

  /** The classification report as a PDF, rendered in the same worker, in turn with the reports. */
  renderClassification(data: ClassificationData, signal?: AbortSignal): Promise<RenderedReport> {
    return this.submit({ kind: 'classification', data }, signal);
  }

  private submit(document: RenderDocument, signal?: AbortSignal): Promise<RenderedReport> {
    if (this.closed) return Promise.reject(new Error('The report renderer has been shut down'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<RenderedReport>((resolve, reject) => {
      const onAbort = () => {
        const queued = this.queue.indexOf(job);
        if (queued >= 0) this.queue.splice(queued, 1);
        settle(() => reject(signal!.reason));
      };
      const settle = (how: () => void) => {
        if (job.done) return;
        job.done = true;
        job.cleanup();
        how();
      };
      const job: Job = {
        id: ++this.seq,
        document,
        done: false,
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.next();
    });
  }

  /** Hands the next queued report to the worker (started when there is none) once it is free. */
  private next(): void {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) {
      this.idle();
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker ?? this.start();
    this.current = job;
    worker.ref();
    try {
      worker.postMessage({ id: job.id, document: job.document } satisfies RenderRequest);
    } catch (error) {
      // Data that cannot be cloned (a function, a class with private fields): this report's fault, not the worker's.
      this.current = null;
      job.reject(error);
      this.next();
    }
  }

  private start(): Worker {
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: workerData() });
    this.worker = worker;
    worker.on('message', (reply: RenderReply) => this.settled(worker, reply));
    worker.on('error', (error) => this.died(worker, `crashed: ${error.stack ?? error.message}`));
    worker.on('exit', (code) => this.died(worker, `exited with code ${code}`));
    return worker;
  }

  private settled(worker: Worker, reply: RenderReply): void {
    const job = this.current;
    if (worker !== this.worker || !job || job.id !== reply.id) return;
    this.current = null;
    worker.unref();
    if ('pdf' in reply) {
      job.resolve({ pdf: Buffer.from(reply.pdf), threadId: reply.threadId });
    } else {
      const error = new Error(`The PDF report could not be rendered: ${reply.error.message}`);
      if (reply.error.stack) error.stack = `${error.message}\n  in the report worker: ${reply.error.stack}`;
      job.reject(error);
    }
    this.next();
  }

  /** The worker is gone (an uncaught error, or it exited): its report fails, the next one starts a new worker. */
  private died(worker: Worker, how: string): void {
    if (worker !== this.worker) return;
    this.worker = null;
    const job = this.current;
    this.current = null;
    if (this.closed) return;
    if (job) {
      this.logger.error(`The report worker ${how} while rendering a report; the next report starts a new one`);
      job.reject(new Error(`The PDF report could not be rendered: the report worker ${how}`));
    } else {
      this.logger.warn(`The report worker ${how}`);
    }
    if (how.startsWith('crashed')) void worker.terminate();
    this.next();
  }

  /** No report left: the worker ends after idleMs unless one comes. */
  private idle(): void {
    if (!this.worker || this.idleTimer) return;
    this.worker.unref();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (!this.current && this.queue.length === 0) void this.stop();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const shutdown = new Error('The API is shutting down');
    for (const job of this.queue.splice(0)) job.reject(shutdown);
    this.current?.reject(shutdown);
    this.current = null;
    await this.stop();
  }
}
