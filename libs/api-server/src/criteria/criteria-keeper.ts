import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import pLimit from 'p-limit';
import {
  BUS_CHANNEL_PREFIX,
  type CriteriaEngineInput,
  type CriteriaView,
  encodeBusMessage,
  parseBusMessage,
  parseResearchChannel,
  researchChannel,
} from '@furnace/contracts';
import { CriteriaEngine, type CriteriaEngineState } from '@furnace/criteria';
import type { Bus } from '@furnace/bus';
import type { ResearchEntity } from '@furnace/db';
import { RealArrayReader } from '../history/real-array';
import { toCriteriaFrame } from '../history/stored-frame';
import { keysetPages } from '../core/keyset-pages';
import { BUS } from '../core/tokens';
import { ResearchEvents } from '../research/research-events';
import { CriteriaRepository } from './criteria.repository';
import { CriteriaStateRepository } from './criteria-state.repository';
import { profileOf, toExclusion, toObservation, withoutClassification } from './criteria-inputs';

/**
 * Who reads the criteria. Both get the one result computed from every observation; a client's view
 * withholds the classification when staff chose so (research.classification_to_clients), nothing else.
 */
export type Audience = 'staff' | 'client';

export interface KeeperOptions {
  /** How long a lease runs without renewal: an owner that died is replaced after at most this long (ms). */
  leaseMs: number;
  /** How often leases are renewed, idle researches released and ended tests noticed (ms). */
  tickMs: number;
  /** A research with no frame and no reader for this long is saved and released (ms). */
  idleMs: number;
  /** The whole state is saved at least this often while it changes (ms); the views at every push. */
  saveMs: number;
  /** Changes brought by frames are pushed at most this often per research (ms); staff changes at once. */
  pushMs: number;
  /** A non-owner waits this long for the owner's views of new inputs before computing them itself (ms). */
  waitMs: number;
  /** A full pass yields to the event loop after this much work (ms), so no viewer's frame waits behind it. */
  sliceMs: number;
  /**
   * The kept engine's state is copied every this many seconds of test time as the frames come (in
   * memory; not along a pass over the whole test): an exclusion that starts later than a copy goes on from
   * it (CriteriaEngine.restore) instead of reading the whole test.
   */
  copyEveryS: number;
  /**
   * Frames read from the database at a time: 1 000 frames of 300 thermocouples are ~2 MB of text, which
   * dies young in the garbage collector; larger pages made a day-long pass barely faster (docs/performance.md).
   */
  framesPage: number;
}

export const KEEPER_OPTIONS = Symbol('KEEPER_OPTIONS');

/**
 * What the owner of a research tells another part of the api as it keeps it (the alarms: docs/architecture.md,
 * "Alarms: raised once"). Called on the owner only, synchronously; a listener does its own work off the call.
 */
export interface KeptListener {
  /** This instance took the research's lease and keeps it from now on. */
  adopted(researchId: string): void;
  /** A frame of the kept research was stored (heard on the bus). */
  frame(researchId: string): void;
  /** The kept views were made again (new frames or other inputs); `research` as the inputs read it. */
  views(researchId: string, staff: CriteriaView, research: ResearchEntity): void;
  /** This instance keeps the research no longer (released, lost, or the research is gone). */
  dropped(researchId: string): void;
  /** True while the research must stay kept though no frame and no reader came (a running test watched for silence). */
  holds(researchId: string): boolean;
}

const DEFAULT_OPTIONS: KeeperOptions = {
  leaseMs: 20_000,
  tickMs: 5_000,
  idleMs: 120_000,
  saveMs: 30_000,
  pushMs: 1_000,
  waitMs: 5_000,
  sliceMs: 8,
  copyEveryS: 3_600,
  framesPage: 1_000,
};
/**
 * A non-owner answers with the owner's views when they include the frames stored up to this many seconds
 * (of test time) before the newest: the owner pushes at most once per pushMs, so during a running test the
 * views it last heard are that much behind; older ones (a newer frame the owner has not pushed yet, or
 * missed) are waited for.
 */
const FRESH_SLACK_S = 5;
/** Inputs read for a research are reused this long (ms) unless a change is announced. */
const INPUTS_TTL_MS = 1_000;
/**
 * Copies kept per research at most; past it every other older one goes (the recent ones stay dense). A
 * state grows with the test (d_e keeps the furnace's curve: 2.5 MB as JSON after 24 h at 1 Hz): 8 copies
 * of a day-long test are ~20 MB.
 */
const CHECKPOINTS_AT_MOST = 8;

/** What the criteria of a research are computed from, read from the database. */
interface Inputs {
  research: ResearchEntity;
  /** Every observation; `ended` as of reading. */
  input: CriteriaEngineInput;
  ended: boolean;
  inputHash: string;
  viewHash: string;
  at: number;
}

interface Views {
  staff: CriteriaView;
  client: CriteriaView;
  viewHash: string;
}

/** A research whose criteria this instance keeps (holds the lease of). */
class Kept {
  engine: CriteriaEngine | null = null;
  /** inputHash of the inputs the engine was built with. */
  engineHash: string | null = null;
  /** The state last saved, to go back to when a frame came late (see verify). */
  checkpoint: { state: string; covered: number | null; frames: number } | null = null;
  /** The engine's state every copyEveryS of test time, oldest first (see resume). */
  copies: { covered: number; state: string }[] = [];
  /** viewHash and frames seen of the views made last: equal, nothing to make again. */
  viewsMadeOf = '';
  inputs: Inputs | null = null;
  views: Views | null = null;
  ignitionAt: string | null = null;
  /** Frames seen when the ignition time was last looked for and none found: it is looked for again only when more came. */
  ignitionSoughtAt = -1;
  lastActive = Date.now();
  lastSaved = 0;
  savedFrames = -1;
  /** inputHash of the state last saved: a state of other inputs is saved at once. */
  savedHash: string | null = null;
  /** The next sync checks the stored frames against those seen (see verify). */
  verifyDue = false;
  /** JSON of the views last pushed, and when; the views object it was made of (the same object: nothing to compare). */
  published = '';
  publishedViews: Views | null = null;
  publishedAt = 0;
  publishTimer: NodeJS.Timeout | null = null;
  /** Every operation on the state runs in turn. */
  private tail: Promise<void> = Promise.resolve();
  /** A sync queued and not yet started: later requests join it. */
  private queued: Promise<void> | null = null;
  dropped = false;

  constructor(readonly researchId: string) {}

  /** Runs `sync` after whatever runs now; callers arriving before it starts share it. */
  requestSync(sync: () => Promise<void>): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.tail.then(() => {
      if (this.queued === run) this.queued = null;
      return this.dropped ? undefined : sync();
    });
    this.queued = run;
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Runs `work` after whatever runs now (not shared). */
  exclusive(work: () => Promise<void>): Promise<void> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The criteria of every research, computed once and kept (docs/architecture.md, "The criteria:
 * computed once, kept, pushed"). One API instance at a time keeps a research — the holder of its
 * lease in criteria_state —: it pushes each newly stored frame through the engine (state + new frames
 * → new state), saves the state with the frame it covers, and publishes the views on the bus; every
 * instance forwards them to its viewers and answers GET /criteria from them. A change of the past
 * (T0, an exclusion, the profile, the markers) is computed once, off the request, in slices that
 * yield to the event loop. When the owner dies its lease runs out and the next instance that sees a
 * frame or a reader of the research takes it over from the saved state.
 */
@Injectable()
export class CriteriaKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Criteria');
  readonly instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly options: KeeperOptions;
  private readonly kept = new Map<string, Kept>();
  /** Views heard on the bus or read from the database, by research (a bounded cache). */
  private readonly views = new Map<string, Views>();
  private readonly inputsCache = new Map<string, Promise<Inputs>>();
  private readonly lastTry = new Map<string, number>();
  private readonly waiters = new Map<
    string,
    Set<{ viewHash: string; covers: (views: Views) => boolean; resolve: (views: Views) => void }>
  >();
  /** Full passes over a test's frames run one at a time per instance. */
  private readonly fullPasses = pLimit(1);
  /** Told when the last full pass running or waiting here ends (see fullPassesIdle). */
  private passesIdle: (() => void)[] = [];
  private stopBus: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** Full passes run (for tests and metrics). */
  fullPassCount = 0;
  private readonly listeners: KeptListener[] = [];

  constructor(
    private readonly repo: CriteriaRepository,
    private readonly states: CriteriaStateRepository,
    @Inject(BUS) private readonly bus: Bus,
    events: ResearchEvents,
    @Inject(KEEPER_OPTIONS) options: Partial<KeeperOptions> | null,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...(options ?? {}) };
    events.onLocalChange((researchId) => this.forgetInputs(researchId));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.stopBus = await this.bus.subscribePrefix(BUS_CHANNEL_PREFIX, (channel, message) =>
      this.onBus(channel, message),
    );
    this.timer = setInterval(() => void this.tick(), this.options.tickMs);
    this.timer.unref();
  }

  /** Saves every kept state and hands its lease back, so another instance takes over at once. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.stopBus?.().catch(() => undefined);
    await Promise.all([...this.kept.values()].map((kept) => this.release(kept)));
  }

  /**
   * The criteria of a research for a reader, as they stand now: this instance's own when it keeps the
   * research (brought up to the newest stored frame first), else the owner's, once they reflect the
   * inputs as they are now. Throws NotFoundException for an unknown research.
   */
  async view(researchId: string, audience: Audience): Promise<CriteriaView> {
    const inputs = await this.inputs(researchId);
    const kept = this.kept.get(researchId) ?? (await this.adopt(researchId));
    if (kept) {
      kept.lastActive = Date.now();
      await kept.requestSync(() => this.sync(kept));
      if (kept.views) return kept.views[audience];
    }
    // The owner's views of the inputs as they are now, covering the frames stored until a push ago.
    const newest = await this.repo.newestTime(researchId);
    const covers = (views: Views) =>
      newest === null || (views.staff.elapsed ?? Number.NEGATIVE_INFINITY) >= newest - FRESH_SLACK_S;
    const known = this.views.get(researchId) ?? (await this.storedViews(researchId));
    if (known && known.viewHash === inputs.viewHash && covers(known)) return known[audience];
    const fresh = await this.waitForViews(researchId, inputs.viewHash, covers);
    if (fresh) return fresh[audience];
    // Views of these inputs that lag the newest frames are still the owner's: better than a pass over the test here.
    const latest = this.views.get(researchId) ?? known;
    if (latest && latest.viewHash === inputs.viewHash) return latest[audience];
    // The owner did not answer in time (it may have just died: its lease runs out soon): compute once here.
    this.logger.warn(
      `Criteria of ${researchId} computed without keeping them: the owner did not publish within ${this.options.waitMs} ms`,
    );
    const engine = await this.fullPass(researchId, inputs);
    return this.viewsOf(engine, inputs, await this.ignitionAt(researchId))[audience];
  }

  /** Told of what this instance keeps (see KeptListener). Register before the application starts. */
  listen(listener: KeptListener): void {
    this.listeners.push(listener);
  }

  /**
   * Takes the research's lease when it is free (a running test nobody keeps: its silence must be noticed though no
   * frame comes) and brings it up to date; false when another instance keeps it.
   */
  async keep(researchId: string): Promise<boolean> {
    const kept = await this.adopt(researchId);
    if (!kept) return false;
    kept.lastActive = Date.now();
    await kept.requestSync(() => this.sync(kept));
    return true;
  }

  private tell(call: (listener: KeptListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.logger.warn(`A listener of the kept criteria failed: ${(error as Error).message}`);
      }
    }
  }

  /** Researches this instance keeps now (tests, metrics). */
  get keptResearches(): string[] {
    return [...this.kept.keys()];
  }

  // --- The bus ----------------------------------------------------------------------------------

  private onBus(channel: string, message: string): void {
    const researchId = parseResearchChannel(channel);
    if (researchId === null) return;
    // Frames are by far the most frequent: recognised without parsing them (the ingest writes type first).
    if (message.startsWith('{"type":"frame"')) return this.frameStored(researchId);
    const parsed = parseBusMessage(message);
    if (!parsed.ok) return;
    const bus = parsed.value;
    if (bus.type === 'frame') return this.frameStored(researchId);
    if (bus.type === 'alarm') return;
    if (bus.type === 'update') {
      this.forgetInputs(researchId);
      const kept = this.kept.get(researchId);
      if (kept && bus.kind !== 'LIVESTREAM')
        void kept.requestSync(() => this.sync(kept)).catch((e: Error) => this.failed(kept, e));
      return;
    }
    const views: Views = { staff: bus.staff, client: bus.client, viewHash: bus.fingerprint };
    this.remember(researchId, views);
    const waiting = this.waiters.get(researchId);
    if (waiting) for (const w of [...waiting]) if (w.viewHash === views.viewHash && w.covers(views)) w.resolve(views);
  }

  private frameStored(researchId: string): void {
    const kept = this.kept.get(researchId);
    if (kept) {
      kept.lastActive = Date.now();
      this.tell((l) => l.frame(researchId));
      void kept.requestSync(() => this.sync(kept)).catch((e: Error) => this.failed(kept, e));
      return;
    }
    // Frames flow and nobody here keeps the research: take it if its lease is free (now and then, not per frame).
    const now = Date.now();
    if (this.stopping || now - (this.lastTry.get(researchId) ?? 0) < this.options.tickMs) return;
    this.lastTry.set(researchId, now);
    void this.adopt(researchId)
      .then((adopted) => adopted?.requestSync(() => this.sync(adopted)))
      .catch((e: Error) => this.logger.warn(`Criteria of ${researchId} not taken over: ${e.message}`));
  }

  private remember(researchId: string, views: Views): void {
    this.views.delete(researchId);
    this.views.set(researchId, views);
    // A bounded cache: the oldest entries go first.
    if (this.views.size > 1000) this.views.delete(this.views.keys().next().value as string);
  }

  private waitForViews(researchId: string, viewHash: string, covers: (views: Views) => boolean): Promise<Views | null> {
    return new Promise((resolve) => {
      let set = this.waiters.get(researchId);
      if (!set) this.waiters.set(researchId, (set = new Set()));
      const waiter = {
        viewHash,
        covers,
        resolve: (views: Views | null) => {
          clearTimeout(timer);
          set.delete(waiter);
          if (set.size === 0) this.waiters.delete(researchId);
          resolve(views);
        },
      };
      const timer = setTimeout(() => waiter.resolve(null), this.options.waitMs);
      set.add(waiter);
    });
  }

  private async storedViews(researchId: string): Promise<Views | null> {
    const row = await this.states.readViews(researchId);
    if (!row || row.staff === null || row.client === null) return null;
    const views: Views = {
      staff: row.staff as CriteriaView,
      client: row.client as CriteriaView,
      viewHash: row.viewHash,
    };
    this.remember(researchId, views);
    return views;
  }

  // --- Inputs -----------------------------------------------------------------------------------

  private forgetInputs(researchId: string): void {
    this.inputsCache.delete(researchId);
  }

  /** The research's inputs, read once for all callers within INPUTS_TTL_MS (or until a change is announced). */
  private inputs(researchId: string): Promise<Inputs> {
    const cached = this.inputsCache.get(researchId);
    if (cached) return cached;
    const loading = this.readInputs(researchId);
    this.inputsCache.set(researchId, loading);
    const forget = () => {
      if (this.inputsCache.get(researchId) === loading) this.inputsCache.delete(researchId);
    };
    loading.then(() => setTimeout(forget, INPUTS_TTL_MS).unref(), forget);
    return loading;
  }

  private async readInputs(researchId: string): Promise<Inputs> {
    const research = await this.repo.research(researchId);
    if (!research) throw new NotFoundException('Research not found');
    const [markers, exclusions, all] = await Promise.all([
      this.repo.markers(researchId),
      this.repo.listExclusions(researchId),
      this.repo.listObservations(researchId, false),
    ]);
    const observations = all.map(toObservation);
    const ended = Date.now() > research.endAt.getTime() || observations.some((o) => o.kind === 'test_stopped');
    const input: CriteriaEngineInput = {
      profile: profileOf(research),
      markers,
      exclusions: exclusions.map(toExclusion),
      observations,
      t0_override: research.t0Override,
      ended,
    };
    const inputHash = sha256(CriteriaEngine.inputKey(input));
    // A note's text and who sees an observation change nothing computed: only what the engine sees of them,
    // and whether clients see the classification.
    const judged = observations.map((o) => [o.id, o.time, o.kind]);
    const viewHash = sha256(JSON.stringify([inputHash, judged, ended, research.classificationToClients]));
    return { research, input, ended, inputHash, viewHash, at: Date.now() };
  }

  // --- Keeping a research -----------------------------------------------------------------------

  /** Takes the research's lease when free and starts keeping it from its saved state; null when another instance keeps it. */
  private async adopt(researchId: string): Promise<Kept | null> {
    if (this.stopping) return null;
    const existing = this.kept.get(researchId);
    if (existing) return existing;
    const row = await this.states.acquire(researchId, this.instanceId, this.options.leaseMs);
    if (!row) return null;
    const again = this.kept.get(researchId);
    if (again) return again;
    const kept = new Kept(researchId);
    this.kept.set(researchId, kept);
    this.tell((l) => l.adopted(researchId));
    // Restored in the first sync, once the inputs are known (a state of other inputs is computed again).
    if (row.state !== '') {
      kept.checkpoint = { state: row.state, covered: row.coveredTime, frames: row.frameCount };
      kept.savedHash = row.inputHash;
      kept.savedFrames = row.frameCount;
    }
    return kept;
  }

  /**
   * Brings a kept research up to date: the inputs as they are now (a change of the past computes the
   * whole test again, in slices), then the frames stored since the state's newest, then the views
   * (pushed when they changed), and the state saved when due.
   */
  private async sync(kept: Kept): Promise<void> {
    const id = kept.researchId;
    let inputs: Inputs;
    try {
      inputs = await this.inputs(id);
    } catch (error) {
      if (error instanceof NotFoundException) return this.drop(kept);
      throw error;
    }
    if (kept.engine === null && kept.checkpoint !== null) {
      kept.engine = this.restore(id, inputs, kept.checkpoint.state);
      kept.engineHash = kept.engine ? inputs.inputHash : null;
    }
    if (kept.engine === null || kept.engineHash !== inputs.inputHash) {
      kept.engine = (kept.engine && this.resume(kept, inputs)) ?? (await this.fullPass(id, inputs, kept));
      kept.engineHash = inputs.inputHash;
      kept.checkpoint = null;
    }
    kept.inputs = inputs;
    await this.catchUp(id, kept.engine, kept);
    if (kept.verifyDue) {
      kept.verifyDue = false;
      await this.verify(kept, inputs);
    }
    const engine = kept.engine;
    // Found once, it stays; not found (no frame with a stamp yet), sought again only when new frames came.
    if (kept.ignitionAt === null && kept.ignitionSoughtAt !== engine.framesSeen) {
      kept.ignitionSoughtAt = engine.framesSeen;
      kept.ignitionAt = await this.ignitionAt(id);
    }
    // Views are made again only when the inputs they show or the frames taken changed.
    const made = `${inputs.viewHash}|${engine.framesSeen}|${engine.lastFrameTime}|${kept.ignitionAt}`;
    if (kept.views === null || made !== kept.viewsMadeOf) {
      engine.setObservations(inputs.input.observations ?? []);
      engine.setEnded(inputs.ended);
      kept.views = this.viewsOf(engine, inputs, kept.ignitionAt);
      kept.viewsMadeOf = made;
      const staff = kept.views.staff;
      this.tell((l) => l.views(id, staff, inputs.research));
    }
    // Saved at once when it rests on other inputs than the saved one (an owner that dies then leaves a
    // state the next one can go on from), else when new frames came and the last save is saveMs old.
    // Pushed before the state is saved: the viewers need not wait for it (a day-long test's state is ~3 MB).
    this.publish(kept);
    const otherInputs = kept.savedHash !== inputs.inputHash;
    if (otherInputs || (engine.framesSeen !== kept.savedFrames && Date.now() - kept.lastSaved >= this.options.saveMs)) {
      await this.save(kept);
      // The save checks the frames taken against those stored first (a late frame: views of more frames).
      this.publish(kept);
    }
  }

  /**
   * After a change of the inputs that only moves exclusion starts (an exclusion added, changed or
   * deleted): the engine from the newest state that the change leaves as it was — the kept engine's own
   * when every changed start lies after its newest frame, else the newest copy before them (see
   * CriteriaEngine.restore) —, or null (the whole test is read again).
   */
  private resume(kept: Kept, inputs: Inputs): CriteriaEngine | null {
    const candidates = [{ covered: kept.engine?.lastFrameTime ?? null, state: () => kept.engine!.saveState() }];
    for (const copy of [...kept.copies].reverse())
      candidates.push({ covered: copy.covered, state: () => JSON.parse(copy.state) as CriteriaEngineState });
    for (const candidate of candidates) {
      let engine: CriteriaEngine;
      try {
        engine = CriteriaEngine.restore(inputs.input, candidate.state());
      } catch {
        continue;
      }
      // Copies after this one were made of the old inputs: made again as the frames are read on.
      kept.copies = kept.copies.filter((c) => candidate.covered !== null && c.covered <= candidate.covered);
      this.logger.log(
        `Criteria of ${kept.researchId}: inputs changed after ${candidate.covered ?? '-'} s; reading on from there`,
      );
      return engine;
    }
    return null;
  }

  /** Copies the engine's state when its newest frame passed into another copyEveryS of test time. */
  private copy(kept: Kept, engine: CriteriaEngine): void {
    const time = engine.lastFrameTime;
    if (time === null) return;
    const last = kept.copies[kept.copies.length - 1];
    const every = this.options.copyEveryS;
    if (last !== undefined && Math.floor(time / every) <= Math.floor(last.covered / every)) return;
    if (last === undefined && time < every) return;
    kept.copies.push({ covered: time, state: JSON.stringify(engine.saveState()) });
    if (kept.copies.length > CHECKPOINTS_AT_MOST) {
      const recent = kept.copies.slice(-CHECKPOINTS_AT_MOST / 2);
      kept.copies = [...kept.copies.slice(0, -CHECKPOINTS_AT_MOST / 2).filter((_, i) => i % 2 === 1), ...recent];
    }
  }

  /**
   * Checks that the database holds as many frames up to the engine's newest as the engine took. A frame
   * that came late (older than the newest, from another ingest instance or out of an outage buffer) was
   * not seen: the engine goes back to the last saved state, when that still holds, and reads on from
   * there; else the whole test is computed again.
   */
  private async verify(kept: Kept, inputs: Inputs): Promise<void> {
    const engine = kept.engine!;
    const covered = engine.lastFrameTime;
    if (covered === null || (await this.states.countFrames(kept.researchId, covered)) === engine.framesSeen) return;
    const checkpoint = kept.checkpoint;
    const back =
      checkpoint !== null &&
      checkpoint.covered !== null &&
      (await this.states.countFrames(kept.researchId, checkpoint.covered)) === checkpoint.frames
        ? this.restore(kept.researchId, inputs, checkpoint.state)
        : null;
    this.logger.log(
      `Criteria of ${kept.researchId}: a frame came late; ${back ? `reading again from ${checkpoint!.covered} s` : 'computing the test again'}`,
    );
    // Copies after the saved state may have missed the late frame; those before it saw every frame up to it.
    if (back) kept.copies = kept.copies.filter((c) => c.covered <= (checkpoint!.covered as number));
    kept.engine = back ?? (await this.fullPass(kept.researchId, inputs, kept));
    await this.catchUp(kept.researchId, kept.engine, kept);
  }

  private restore(researchId: string, inputs: Inputs, saved: string): CriteriaEngine | null {
    try {
      return CriteriaEngine.restore(inputs.input, JSON.parse(saved) as CriteriaEngineState);
    } catch (error) {
      this.logger.log(`Kept criteria of ${researchId} not used (${(error as Error).message}): computing them again`);
      return null;
    }
  }

  /** Frames stored after the engine's newest, in pages; a kept research's engine copied as it goes (see copy). */
  private async catchUp(researchId: string, engine: CriteriaEngine, kept?: Kept): Promise<void> {
    const reader = new RealArrayReader();
    const scratch: number[] = [];
    // The next page is read while this one goes through the engine (the database works on the other core).
    const size = this.options.framesPage;
    const pages = keysetPages((after) => this.repo.frames(researchId, after ?? engine.lastFrameTime, size), {
      size,
      keyOf: (row) => row.time,
    });
    for await (const rows of pages) await this.pushSliced(engine, rows, reader, scratch, kept);
  }

  /** A fresh engine over every stored frame; one full pass at a time per instance, yielding between slices. */
  private fullPass(researchId: string, inputs: Inputs, kept?: Kept): Promise<CriteriaEngine> {
    return this.fullPasses(async () => {
      this.fullPassCount++;
      const engine = new CriteriaEngine(inputs.input);
      // No copies along a pass over the whole test (a finished test's, or after T0 changed): each is as large
      // as the state, and a 24-hour pass making them held the API at 336 MB. A live test gets its copies as
      // its frames come.
      if (kept) kept.copies = [];
      await this.catchUp(researchId, engine);
      return engine;
    }).finally(() => {
      if (this.fullPasses.activeCount + this.fullPasses.pendingCount > 0) return;
      const idle = this.passesIdle;
      this.passesIdle = [];
      for (const resolve of idle) resolve();
    });
  }

  /**
   * Resolves once no pass over a whole test runs or waits on this instance. The category rollups' rebuild
   * after an exclusion waits for it before each chunk it rebuilds (RollupRefresher): the viewers wait for
   * the criteria, a history chart can wait for the rollups.
   */
  fullPassesIdle(): Promise<void> {
    if (this.fullPasses.activeCount + this.fullPasses.pendingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.passesIdle.push(resolve));
  }

  private async pushSliced(
    engine: CriteriaEngine,
    rows: Awaited<ReturnType<CriteriaRepository['frames']>>,
    reader: RealArrayReader,
    scratch: number[],
    kept?: Kept,
  ): Promise<void> {
    let sliceStart = performance.now();
    for (const row of rows) {
      engine.push(toCriteriaFrame(row, row.thermocouples === null ? null : reader.read(row.thermocouples), scratch));
      if (kept) this.copy(kept, engine);
      if (performance.now() - sliceStart >= this.options.sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }

  private viewsOf(engine: CriteriaEngine, inputs: Inputs, ignitionAt: string | null): Views {
    const staff: CriteriaView = {
      ...engine.snapshot(),
      ended: inputs.ended,
      classification_withheld: false,
      ignition_at: ignitionAt,
    };
    return {
      staff,
      client: inputs.research.classificationToClients
        ? staff
        : { ...withoutClassification(staff), classification_withheld: true },
      viewHash: inputs.viewHash,
    };
  }

  private async ignitionAt(researchId: string): Promise<string | null> {
    return (await this.repo.ignitionAt(researchId))?.toISOString() ?? null;
  }

  /** Pushes the views on the bus when they changed: staff changes at once, frames at most every pushMs. */
  private publish(kept: Kept): void {
    const views = kept.views;
    if (!views || views === kept.publishedViews) return;
    this.remember(kept.researchId, views);
    const text = JSON.stringify([views.staff, views.client]);
    if (text === kept.published) return;
    const inputsChanged = kept.published === '' || !kept.published.startsWith(views.viewHash);
    const wait = kept.publishedAt + this.options.pushMs - Date.now();
    if (!inputsChanged && wait > 0) {
      if (!kept.publishTimer) {
        kept.publishTimer = setTimeout(() => {
          kept.publishTimer = null;
          this.publish(kept);
        }, wait);
        kept.publishTimer.unref();
      }
      return;
    }
    if (kept.publishTimer) {
      clearTimeout(kept.publishTimer);
      kept.publishTimer = null;
    }
    kept.published = views.viewHash + text;
    kept.publishedViews = views;
    kept.publishedAt = Date.now();
    const message = encodeBusMessage({
      type: 'criteria',
      research_id: kept.researchId,
      fingerprint: views.viewHash,
      covered_time: kept.engine?.lastFrameTime ?? null,
      staff: views.staff,
      client: views.client,
    });
    void this.bus
      .publish(researchChannel(kept.researchId), message)
      .catch((e: Error) => this.logger.warn(`Criteria of ${kept.researchId} not published: ${e.message}`));
    void this.states
      .saveViews(kept.researchId, this.instanceId, views.viewHash, views.staff, views.client)
      .then((held) => (held ? undefined : this.lost(kept)))
      .catch((e: Error) => this.logger.warn(`Criteria views of ${kept.researchId} not saved: ${e.message}`));
  }

  /** Saves the whole state with the frame it covers (after checking the frames it saw: see verify). */
  private async save(kept: Kept): Promise<void> {
    const inputs = kept.inputs;
    if (!kept.engine || !inputs || !kept.views) return;
    await this.verify(kept, inputs);
    const engine = kept.engine;
    const views = (kept.views = this.viewsOf(engine, inputs, kept.ignitionAt));
    const state = JSON.stringify(engine.saveState());
    const covered = engine.lastFrameTime;
    const held = await this.states.saveState(kept.researchId, this.instanceId, {
      inputHash: inputs.inputHash,
      coveredTime: covered,
      frameCount: engine.framesSeen,
      state,
      viewHash: views.viewHash,
      staff: views.staff,
      client: views.client,
    });
    if (!held) return this.lost(kept);
    kept.checkpoint = { state, covered, frames: engine.framesSeen };
    kept.lastSaved = Date.now();
    kept.savedFrames = engine.framesSeen;
    kept.savedHash = inputs.inputHash;
  }

  /** Renews the leases, notices tests that ended by the clock, saves and releases idle researches. */
  private async tick(): Promise<void> {
    if (this.stopping || this.kept.size === 0) return;
    const now = Date.now();
    let held: Set<string>;
    try {
      held = await this.states.renew(this.instanceId, [...this.kept.keys()], this.options.leaseMs);
    } catch (error) {
      this.logger.warn(`Criteria leases not renewed: ${(error as Error).message}`);
      return;
    }
    for (const kept of [...this.kept.values()]) {
      if (!held.has(kept.researchId)) {
        this.lost(kept);
        continue;
      }
      if (now - kept.lastActive >= this.options.idleMs && !this.listeners.some((l) => l.holds(kept.researchId))) {
        void this.release(kept);
        continue;
      }
      const inputs = kept.inputs;
      const endedByClock = inputs !== null && !inputs.ended && now > inputs.research.endAt.getTime();
      if (endedByClock) this.forgetInputs(kept.researchId);
      // Every tick: the frames seen are checked against those stored (a late frame is read within a tick).
      kept.verifyDue = true;
      void kept.requestSync(() => this.sync(kept)).catch((e: Error) => this.failed(kept, e));
    }
  }

  /** Saves and hands the lease back (idle, or stopping). */
  private release(kept: Kept): Promise<void> {
    return kept.exclusive(async () => {
      if (kept.dropped) return;
      try {
        if (kept.engine && (kept.engine.framesSeen !== kept.savedFrames || kept.savedHash !== kept.inputs?.inputHash))
          await this.save(kept);
        await this.states.release(kept.researchId, this.instanceId);
      } catch (error) {
        this.logger.warn(`Criteria of ${kept.researchId} not released cleanly: ${(error as Error).message}`);
      } finally {
        this.drop(kept);
      }
    });
  }

  /** Another instance holds the lease now (this one stalled past it): stop keeping the research. */
  private lost(kept: Kept): void {
    if (kept.dropped) return;
    this.logger.warn(`Criteria of ${kept.researchId} are kept by another instance now`);
    this.drop(kept);
  }

  private drop(kept: Kept): void {
    kept.dropped = true;
    if (kept.publishTimer) clearTimeout(kept.publishTimer);
    if (this.kept.get(kept.researchId) === kept) {
      this.kept.delete(kept.researchId);
      this.tell((l) => l.dropped(kept.researchId));
    }
  }

  private failed(kept: Kept, error: Error): void {
    this.logger.warn(`Criteria of ${kept.researchId} not brought up to date: ${error.message}`);
  }
}
