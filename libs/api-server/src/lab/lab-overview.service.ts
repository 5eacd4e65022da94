import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Bus } from '@furnace/bus';
import {
  BUS_CHANNEL_PREFIX,
  type CriteriaView,
  encodeLabMessage,
  type LabTile,
  parseBusMessage,
} from '@furnace/contracts';
import { AlarmsService } from '../alarms/alarms.service';
import { CriteriaKeeper } from '../criteria/criteria-keeper';
import { BUS } from '../core/tokens';
import { LiveService } from '../live/live.service';
import { ResearchEvents } from '../research/research-events';
import { LabRepository, type FurnaceSchedule } from './lab.repository';
import { LabViewers } from './lab-viewers';

/** What the overview needs of a subscriber's socket. */
interface LabSocket {
  readonly bufferedAmount: number;
  send(data: Buffer): void;
  terminate(): void;
}

interface LabOptions {
  /** A tile is sent at most once per this many ms (its changes in between go out together). */
  flushMs: number;
  /** The schedule (furnaces, running and next tests) is read again this often, besides after every change heard. */
  reloadMs: number;
  /** A subscriber whose socket holds more than this many unsent bytes is dropped (its page reconnects). */
  slowBytes: number;
}

export const LAB_OPTIONS = Symbol('LAB_OPTIONS');
const DEFAULT_OPTIONS: LabOptions = { flushMs: 1_000, reloadMs: 15_000, slowBytes: 1024 * 1024 };

/** The criteria fields a tile carries (copied from the views the keeper publishes; nothing is computed here). */
type CriteriaFields = Pick<LabTile, 'deviation' | 'hottest' | 'forecast'> & { ignition_at: string | null };

const NO_CRITERIA: CriteriaFields = { deviation: null, hottest: null, forecast: null, ignition_at: null };

/** The tile's fields of a staff view of the criteria. */
function criteriaFields(view: CriteriaView): CriteriaFields {
  let hottest: LabTile['hottest'] = null;
  for (const c of view.categories) {
    if (!c.role.max || c.max_rise === null) continue;
    if (hottest === null || (hottest.rise_k ?? Number.NEGATIVE_INFINITY) < c.max_rise)
      hottest = {
        type_name: c.type_name,
        rise_k: c.max_rise,
        max_c: c.max,
        limit_k: view.limits.max?.k ?? null,
        limit_c: view.limits.max?.c ?? null,
      };
  }
  const soonest = view.forecast.reduce<CriteriaView['forecast'][number] | null>(
    (best, f) => (best === null || f.eta_s < best.eta_s ? f : best),
    null,
  );
  return {
    deviation: { d_e: view.deviation.d_e, tolerance: view.deviation.tolerance, ok: view.deviation.ok },
    hottest,
    forecast: soonest ? { criterion: soonest.criterion, eta_s: soonest.eta_s } : null,
    ignition_at: view.ignition_at,
  };
}

/** The newest frame's wall-clock time as the criteria date it (ignition + elapsed), or null. */
function framedAt(view: CriteriaView): number | null {
  if (view.ignition_at === null || view.elapsed === null) return null;
  return Date.parse(view.ignition_at) + view.elapsed * 1000;
}

interface Slot {
  schedule: FurnaceSchedule;
  criteria: CriteriaFields;
  /** ms: when a frame of the running test last reached this instance (or its criteria dated the newest). */
  lastFrameAt: number | null;
  viewers: number;
  /** Open alarms of the running test: counted when it starts running here and at each of its ALARM messages. */
  openAlarms: number;
  /** The tile as last sent (JSON), to send only what changed. */
  sent: string | null;
}

/**
 * The lab overview (docs/behaviour.md §18): one tile per furnace, kept up to date from what the API already
 * hears — the schedule in the database, every research's bus channel (a frame's arrival; the criteria views
 * their keeper publishes, whose fields are carried as they are) and the live viewers of every instance — and
 * sent to the overview's sockets: every tile when one opens, then each changed tile at most once a second. A
 * frame costs a map lookup and a flag; the work of a tile is done once per second it changed, whatever the number
 * of frames or of sockets.
 */
@Injectable()
export class LabOverview implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LabOverview');
  private readonly options: LabOptions;
  /** By furnace id, in the schedule's order (by code). */
  private slots = new Map<string, Slot>();
  /** The furnace each running test is on, by research id. */
  private running = new Map<string, string>();
  private readonly dirty = new Set<string>();
  private readonly sockets = new Set<LabSocket>();
  private stopBus: (() => Promise<void>) | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private reloadTimer: NodeJS.Timeout | null = null;
  private boundaryTimer: NodeJS.Timeout | null = null;
  private loading: Promise<void> | null = null;
  private reloadAgain = false;
  private loaded: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly repository: LabRepository,
    private readonly live: LiveService,
    private readonly viewers: LabViewers,
    private readonly keeper: CriteriaKeeper,
    private readonly alarms: AlarmsService,
    @Inject(BUS) private readonly bus: Bus,
    events: ResearchEvents,
    @Inject(LAB_OPTIONS) options: Partial<LabOptions> | null,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...(options ?? {}) };
    // A test scheduled, moved, renamed or archived (through any instance) changes the tiles.
    events.onChange((_id, kind) => {
      if (kind === 'RESEARCH') this.reload();
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.stopBus = await this.bus.subscribePrefix(BUS_CHANNEL_PREFIX, (channel, message) =>
      this.onBus(channel, message),
    );
    // After a bus outage the views published meanwhile were missed: the keepers' are read again.
    this.bus.onReconnect(() => {
      this.reload();
      for (const researchId of this.running.keys()) this.readCriteria(researchId);
    });
    await this.viewers.start();
    this.flushTimer = setInterval(() => this.flush(), this.options.flushMs);
    this.flushTimer.unref();
    this.reloadTimer = setInterval(() => this.reload(), this.options.reloadMs);
    this.reloadTimer.unref();
    this.loaded = this.reload();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const t of [this.flushTimer, this.reloadTimer]) if (t) clearInterval(t);
    if (this.boundaryTimer) clearTimeout(this.boundaryTimer);
    await this.stopBus?.().catch(() => undefined);
    await this.viewers.close();
  }

  /** Adds an overview socket and sends it every tile; returns the function that removes it. */
  async subscribe(socket: LabSocket): Promise<() => void> {
    // The schedule as it is now (a furnace added a moment ago is heard of only by the next reload otherwise).
    await this.loaded;
    await this.loading;
    await this.reload();
    this.sockets.add(socket);
    socket.send(Buffer.from(this.snapshot()));
    return () => void this.sockets.delete(socket);
  }

  /** Every tile as it stands (the LAB message). */
  snapshot(): string {
    const tiles = [...this.slots.values()].map((slot) => this.tileOf(slot));
    return encodeLabMessage({ event: 'LAB', data: { server_time: new Date().toISOString(), tiles } });
  }

  /** Overview sockets open on this instance. */
  get socketCount(): number {
    return this.sockets.size;
  }

  // --- What is heard ----------------------------------------------------------------------------

  private onBus(channel: string, message: string): void {
    // Channels carry the research id in its normal (lowercase) form: a lookup, no parsing, for a test on no furnace.
    const furnaceId = this.running.get(channel.slice(BUS_CHANNEL_PREFIX.length));
    if (furnaceId === undefined) return;
    const slot = this.slots.get(furnaceId);
    if (!slot) return;
    if (message.startsWith('{"type":"frame"')) {
      slot.lastFrameAt = Date.now();
      this.dirty.add(furnaceId);
      return;
    }
    if (message.startsWith('{"type":"alarm"')) {
      this.readAlarms(channel.slice(BUS_CHANNEL_PREFIX.length));
      return;
    }
    if (!message.startsWith('{"type":"criteria"')) return;
    const parsed = parseBusMessage(message);
    if (!parsed.ok || parsed.value.type !== 'criteria') return;
    this.applyCriteria(furnaceId, parsed.value.research_id, parsed.value.staff);
  }

  private applyCriteria(furnaceId: string, researchId: string, view: CriteriaView): void {
    const slot = this.slots.get(furnaceId);
    if (!slot || slot.schedule.running?.research_id !== researchId) return;
    slot.criteria = criteriaFields(view);
    const at = framedAt(view);
    if (at !== null && (slot.lastFrameAt === null || at > slot.lastFrameAt))
      slot.lastFrameAt = Math.min(at, Date.now());
    this.dirty.add(furnaceId);
  }

  /** The keeper's views of a test that started running here (a restart, a new test): once, not per frame. */
  private readCriteria(researchId: string): void {
    this.keeper
      .view(researchId, 'staff')
      .then((view) => {
        const furnaceId = this.running.get(researchId);
        if (furnaceId !== undefined) this.applyCriteria(furnaceId, researchId, view);
      })
      .catch((e: Error) => this.logger.warn(`Criteria of ${researchId} not read for the lab overview: ${e.message}`));
  }

  /** Counts the running test's open alarms (rare: when it starts running here and at each ALARM, not per frame). */
  private readAlarms(researchId: string): void {
    this.alarms
      .openCount(researchId)
      .then((open) => {
        const furnaceId = this.running.get(researchId);
        const slot = furnaceId === undefined ? undefined : this.slots.get(furnaceId);
        if (!slot || slot.schedule.running?.research_id !== researchId || slot.openAlarms === open) return;
        slot.openAlarms = open;
        this.dirty.add(furnaceId!);
      })
      .catch((e: Error) => this.logger.warn(`Alarms of ${researchId} not counted for the lab overview: ${e.message}`));
  }

  // --- The schedule -----------------------------------------------------------------------------

  /** Reads the schedule again (one at a time; a call while one runs makes one more after it). */
  private reload(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = this.load()
      .catch((e: Error) => this.logger.warn(`Lab schedule not read: ${e.message}`))
      .finally(() => {
        this.loading = null;
        if (this.reloadAgain) {
          this.reloadAgain = false;
          void this.reload();
        }
      });
    return this.loading;
  }

  private async load(): Promise<void> {
    const schedules = await this.repository.schedule();
    const slots = new Map<string, Slot>();
    const running = new Map<string, string>();
    let changedSet = schedules.length !== this.slots.size;
    for (const schedule of schedules) {
      const id = schedule.furnace.id;
      const before = this.slots.get(id);
      const same = before?.schedule.running?.research_id === schedule.running?.research_id;
      if (!before) changedSet = true;
      const slot: Slot = {
        schedule,
        criteria: before && same ? before.criteria : NO_CRITERIA,
        lastFrameAt: before && same ? before.lastFrameAt : null,
        viewers: before && same ? before.viewers : 0,
        openAlarms: before && same ? before.openAlarms : 0,
        sent: before?.sent ?? null,
      };
      slots.set(id, slot);
      if (schedule.running) {
        running.set(schedule.running.research_id, id);
        if (!same || !before) {
          this.readCriteria(schedule.running.research_id);
          this.readAlarms(schedule.running.research_id);
        }
      }
      this.dirty.add(id);
    }
    if ([...this.slots.keys()].join() !== [...slots.keys()].join()) changedSet = true;
    this.slots = slots;
    this.running = running;
    // A furnace added or removed: every socket gets every tile again.
    if (changedSet) this.broadcast(Buffer.from(this.snapshot()), true);
    this.armBoundary(schedules);
  }

  /** Reads the schedule again when the next test starts or the running one ends. */
  private armBoundary(schedules: FurnaceSchedule[]): void {
    if (this.boundaryTimer) clearTimeout(this.boundaryTimer);
    const times = schedules.flatMap((s) => [
      ...(s.running ? [Date.parse(s.running.end_at)] : []),
      ...(s.next ? [Date.parse(s.next.start_at)] : []),
    ]);
    if (times.length === 0) return;
    const wait = Math.min(...times) - Date.now() + 50;
    if (wait > this.options.reloadMs) return;
    this.boundaryTimer = setTimeout(() => void this.reload(), Math.max(wait, 0));
    this.boundaryTimer.unref();
  }

  // --- What is sent -----------------------------------------------------------------------------

  private tileOf(slot: Slot): LabTile {
    const { furnace, running, next } = slot.schedule;
    return {
      furnace,
      running: running ? { ...running, ignition_at: slot.criteria.ignition_at } : null,
      last_frame_at: running && slot.lastFrameAt !== null ? new Date(slot.lastFrameAt).toISOString() : null,
      deviation: running ? slot.criteria.deviation : null,
      hottest: running ? slot.criteria.hottest : null,
      forecast: running ? slot.criteria.forecast : null,
      // The running test's open alarms (docs/behaviour.md §17).
      alarms: { open: running ? slot.openAlarms : 0 },
      viewers: running ? slot.viewers : 0,
      next,
    };
  }

  /** Once a tick: the viewer counts, then every tile that changed, one TILE each. */
  private flush(): void {
    if (this.slots.size === 0) return;
    const local = this.live.viewersByResearch();
    for (const [furnaceId, slot] of this.slots) {
      const researchId = slot.schedule.running?.research_id;
      const viewers = researchId ? this.viewers.of(researchId, local) : 0;
      if (viewers !== slot.viewers) {
        slot.viewers = viewers;
        this.dirty.add(furnaceId);
      }
    }
    if (this.dirty.size === 0) return;
    const serverTime = new Date().toISOString();
    for (const furnaceId of this.dirty) {
      const slot = this.slots.get(furnaceId);
      if (!slot) continue;
      const tile = this.tileOf(slot);
      const json = JSON.stringify(tile);
      if (json === slot.sent) continue;
      slot.sent = json;
      if (this.sockets.size > 0)
        this.broadcast(Buffer.from(`{"event":"TILE","data":{"server_time":"${serverTime}","tile":${json}}}`));
    }
    this.dirty.clear();
  }

  private broadcast(data: Buffer, snapshot = false): void {
    for (const socket of this.sockets) {
      // A socket that cannot keep up is dropped: its page reconnects and gets every tile as it stands.
      if (socket.bufferedAmount > this.options.slowBytes) {
        this.sockets.delete(socket);
        socket.terminate();
        continue;
      }
      socket.send(data);
    }
    if (snapshot) for (const slot of this.slots.values()) slot.sent = JSON.stringify(this.tileOf(slot));
  }
}
