/** A test scheduled on a furnace: its window [startAt, endAt), epoch ms. */
export interface ScheduledTest {
  readonly researchId: string;
  readonly startAt: number;
  readonly endAt: number;
}

/** A furnace as the ingest routes its frames: its id and the tests scheduled on it that end after `since`. */
export interface FurnaceSchedule {
  readonly furnaceId: string;
  /** Ordered by start; they never overlap (the database's exclusion constraint). */
  readonly tests: readonly ScheduledTest[];
  /** Epoch ms: tests that ended before it are not in `tests` (a frame older than it is looked up by itself). */
  readonly since: number;
}

/** Where a frame of a furnace topic goes. */
export type FurnaceRoute =
  /** The test scheduled on the furnace at the frame's time. */
  | { readonly kind: 'research'; readonly researchId: string }
  /** No test at that time: the furnace's unassigned readings. */
  | { readonly kind: 'unassigned' }
  /** No furnace has that code: refused. */
  | { readonly kind: 'unknown' }
  /** The database could not answer about a code never seen: kept as unassigned (the insert finds the furnace by its code). */
  | { readonly kind: 'unverified' };

export interface FurnaceLookups {
  /** The furnace of `code` with its tests ending after `since`, or null when no furnace has that code. */
  schedule(code: string, since: Date): Promise<FurnaceSchedule | null>;
  /** The test scheduled on the furnace at `at`, for a frame older than the cached schedule. */
  testAt(furnaceId: string, at: Date): Promise<string | null>;
}

export interface FurnaceDirectoryOptions {
  /** A furnace whose frames find their test is re-read in the background after this (a test moved, archived, approved). */
  knownTtlMs?: number;
  /**
   * A frame that finds no test makes the schedule read again first when it is older than this: a test created just
   * before its DAQ starts is found within that long. Between tests the database is asked at most this often per furnace.
   */
  missTtlMs?: number;
  /** An unknown code is looked up again after this. */
  unknownTtlMs?: number;
  /** How far back the cached schedule reaches (ms before the lookup). */
  horizonMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  schedule: FurnaceSchedule | null;
  checkedAt: number;
}

const UNASSIGNED: FurnaceRoute = { kind: 'unassigned' };
const UNKNOWN: FurnaceRoute = { kind: 'unknown' };
const UNVERIFIED: FurnaceRoute = { kind: 'unverified' };

/**
 * Which test each furnace's frame goes to (docs/behaviour.md, "Furnaces"): furnace code → furnace id and the tests
 * scheduled on it, cached like ResearchDirectory, so a frame is routed by its time without asking the database.
 * The database is asked for a code not seen recently, in the background when a cached schedule is old, before a
 * frame is called unassigned when the schedule is older than `missTtlMs`, and for a frame older than the schedule's
 * horizon. Lookups of one code are shared between concurrent callers.
 */
export class FurnaceDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry | null>>();
  private readonly knownTtlMs: number;
  private readonly missTtlMs: number;
  private readonly unknownTtlMs: number;
  private readonly horizonMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly lookups: FurnaceLookups,
    options: FurnaceDirectoryOptions = {},
  ) {
    this.knownTtlMs = options.knownTtlMs ?? 10_000;
    this.missTtlMs = options.missTtlMs ?? 1_000;
    this.unknownTtlMs = options.unknownTtlMs ?? 2_000;
    this.horizonMs = options.horizonMs ?? 31 * 24 * 3600_000;
    this.maxEntries = options.maxEntries ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** Where a frame of furnace `code` at `at` (epoch ms) goes: at once when the cache can tell, else a promise (never rejects). */
  route(code: string, at: number): FurnaceRoute | Promise<FurnaceRoute> {
    const entry = this.entries.get(code);
    const now = this.now();
    if (entry?.schedule) {
      const age = now - entry.checkedAt;
      if (at < entry.schedule.since) return this.older(entry.schedule, at);
      const test = findTest(entry.schedule.tests, at);
      if (test) {
        if (age > this.knownTtlMs) void this.lookup(code);
        return { kind: 'research', researchId: test.researchId };
      }
      if (age <= this.missTtlMs) return UNASSIGNED;
      return this.lookup(code).then((fresh) => this.routeIn(fresh ?? entry, at));
    }
    if (entry && now - entry.checkedAt <= this.unknownTtlMs) return UNKNOWN;
    return this.lookup(code).then((fresh) => this.routeIn(fresh ?? entry, at));
  }

  private routeIn(entry: Entry | undefined, at: number): FurnaceRoute | Promise<FurnaceRoute> {
    if (!entry) return UNVERIFIED;
    if (!entry.schedule) return UNKNOWN;
    if (at < entry.schedule.since) return this.older(entry.schedule, at);
    const test = findTest(entry.schedule.tests, at);
    return test ? { kind: 'research', researchId: test.researchId } : UNASSIGNED;
  }

  /** A frame from before the cached schedule (a DAQ emptying its own buffer after a long outage): asked for by itself. */
  private async older(schedule: FurnaceSchedule, at: number): Promise<FurnaceRoute> {
    try {
      const researchId = await this.lookups.testAt(schedule.furnaceId, new Date(at));
      return researchId ? { kind: 'research', researchId } : UNASSIGNED;
    } catch {
      return UNASSIGNED;
    }
  }

  /** The code's entry read again; null when the database did not answer (what was cached stays). */
  private lookup(code: string): Promise<Entry | null> {
    const running = this.inflight.get(code);
    if (running) return running;
    const now = this.now();
    const promise = this.lookups
      .schedule(code, new Date(now - this.horizonMs))
      .then((schedule): Entry => {
        const entry = { schedule, checkedAt: now };
        this.remember(code, entry);
        return entry;
      })
      .catch((): null => null)
      .finally(() => this.inflight.delete(code));
    this.inflight.set(code, promise);
    return promise;
  }

  private remember(code: string, entry: Entry): void {
    this.entries.delete(code);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(code, entry);
  }
}

/** The test whose [startAt, endAt) holds `at` (binary search: the tests are ordered and never overlap). */
function findTest(tests: readonly ScheduledTest[], at: number): ScheduledTest | null {
  let lo = 0;
  let hi = tests.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const test = tests[mid]!;
    if (at < test.startAt) hi = mid - 1;
    else if (at >= test.endAt) lo = mid + 1;
    else return test;
  }
  return null;
}
