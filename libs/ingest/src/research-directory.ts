import type { ResearchWindow } from './readings.repository';

/** What the ingest knows about a research named by a topic. */
export type ResearchStatus =
  | { readonly kind: 'known'; readonly window: ResearchWindow }
  | { readonly kind: 'unknown' }
  /** The database could not answer: the frame is accepted, and the insert skips it if the research does not exist. */
  | { readonly kind: 'unverified' };

interface Entry {
  status: ResearchStatus;
  checkedAt: number;
}

export interface ResearchDirectoryOptions {
  /** A known research is re-read in the background after this (its window may change, it may be deleted). */
  knownTtlMs?: number;
  /** An unknown id is looked up again after this: a research created just before its DAQ starts is found quickly. */
  unknownTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Which researches exist, cached so the hot path reads the database only for an id it has not seen
 * recently. A known research is answered from the cache even while it is being refreshed.
 */
export class ResearchDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ResearchStatus>>();
  private readonly knownTtlMs: number;
  private readonly unknownTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly find: (id: string) => Promise<ResearchWindow | null>,
    options: ResearchDirectoryOptions = {},
  ) {
    this.knownTtlMs = options.knownTtlMs ?? 30_000;
    this.unknownTtlMs = options.unknownTtlMs ?? 2_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The status at once when cached, otherwise a promise of it (never rejects). */
  status(id: string): ResearchStatus | Promise<ResearchStatus> {
    const entry = this.entries.get(id);
    const now = this.now();
    if (entry?.status.kind === 'known') {
      if (now - entry.checkedAt > this.knownTtlMs) void this.lookup(id);
      return entry.status;
    }
    if (entry?.status.kind === 'unknown' && now - entry.checkedAt <= this.unknownTtlMs) return entry.status;
    return this.lookup(id);
  }

  private lookup(id: string): Promise<ResearchStatus> {
    const running = this.inflight.get(id);
    if (running) return running;
    const promise = this.find(id)
      .then((window): ResearchStatus => {
        const status: ResearchStatus = window ? { kind: 'known', window } : { kind: 'unknown' };
        this.remember(id, status);
        return status;
      })
      .catch((): ResearchStatus => {
        // Keep what was known; an id never seen stays unverified and is asked again next time.
        const previous = this.entries.get(id)?.status;
        return previous?.kind === 'known' ? previous : { kind: 'unverified' };
      })
      .finally(() => this.inflight.delete(id));
    this.inflight.set(id, promise);
    return promise;
  }

  private remember(id: string, status: ResearchStatus): void {
    this.entries.delete(id);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the least recently refreshed.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { status, checkedAt: this.now() });
  }
}
