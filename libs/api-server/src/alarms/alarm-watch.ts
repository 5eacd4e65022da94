import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type AlarmKind, type CriteriaView, silenceSeconds } from '@furnace/contracts';
import type { ResearchEntity } from '@furnace/db';
import { CriteriaKeeper, type KeptListener } from '../criteria/criteria-keeper';
import { ALARM_OPTIONS, type AlarmOptions } from './alarm-options';
import { AlarmsRepository } from './alarms.repository';
import { AlarmsService } from './alarms.service';

/** A research this instance keeps (owns), watched for its alarm conditions. */
class Watched {
  /** Wall-clock ms of the newest frame (heard on the bus, or the stored one's when the watch began). */
  lastFrameAt: number | null = null;
  scanPeriodS = 1;
  startAt = 0;
  endAt = 0;
  furnaceId: string | null = null;
  /** The views say the test ended (past end_at or stopped). */
  ended = false;
  /** Open alarms' `kind|subject`. */
  open = new Set<string>();
  timer: NodeJS.Timeout | null = null;
  dropped = false;
  /** Database work on this research runs in turn. */
  private tail: Promise<void> = Promise.resolve();

  constructor(readonly researchId: string) {}

  run(work: () => Promise<void>): Promise<void> {
    const next = this.tail.then(() => (this.dropped ? undefined : work()));
    this.tail = next.catch(() => undefined);
    return next;
  }
}

const key = (kind: AlarmKind, subject = '') => `${kind}|${subject}`;

/**
 * The owner of a research raises and clears its alarms (docs/architecture.md, "Alarms: raised once"): the instance
 * that keeps its criteria (CriteriaKeeper's lease) sees every frame and every view, so it alone evaluates the
 * conditions — a timer per running test for silence (missedScans × the furnace's scan period since the newest
 * frame), the views for the rest. A new owner starts its timer from the newest stored frame, and every instance
 * takes the lease of a running test nobody keeps, so silence is noticed though no frame comes. The database makes
 * a raise exactly-once anyway (alarms.queries.ts).
 */
@Injectable()
export class AlarmWatch implements KeptListener, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Alarms');
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly keeper: CriteriaKeeper,
    private readonly repo: AlarmsRepository,
    private readonly alarms: AlarmsService,
    @Inject(ALARM_OPTIONS) private readonly options: AlarmOptions,
  ) {
    keeper.listen(this);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.keepUnwatched(), this.options.watchMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    for (const w of this.watched.values()) this.stop(w);
  }

  // --- KeptListener --------------------------------------------------------------------------------

  adopted(researchId: string): void {
    const w = new Watched(researchId);
    this.watched.set(researchId, w);
    void w
      .run(async () => {
        const [info, lastFrameAt, open] = await Promise.all([
          this.repo.watched(researchId),
          this.repo.lastFrameAt(researchId),
          this.repo.openKeys(researchId),
        ]);
        if (!info) return;
        w.scanPeriodS = info.scanPeriodS ?? this.options.defaultScanPeriodS;
        w.startAt = info.startAt.getTime();
        w.endAt = info.endAt.getTime();
        w.ended = info.stopped || Date.now() >= w.endAt;
        // A frame heard meanwhile is newer than the stored one.
        w.lastFrameAt = Math.max(w.lastFrameAt ?? 0, lastFrameAt?.getTime() ?? 0) || null;
        for (const k of open) w.open.add(k);
        this.arm(w);
      })
      .catch((e: Error) => this.failed(w, e));
  }

  frame(researchId: string): void {
    const w = this.watched.get(researchId);
    if (!w) return;
    w.lastFrameAt = Date.now();
    this.arm(w);
    if (w.open.has(key('silence'))) this.clear(w, 'silence', '');
    if (w.endAt > 0 && Date.now() >= w.endAt && !w.open.has(key('overrun')))
      this.raise(w, 'overrun', '', { end_at: new Date(w.endAt).toISOString() });
  }

  views(researchId: string, staff: CriteriaView, research: ResearchEntity): void {
    const w = this.watched.get(researchId);
    if (!w) return;
    w.endAt = research.endAt.getTime();
    w.startAt = research.startAt.getTime();
    if (research.furnaceId !== w.furnaceId) {
      w.furnaceId = research.furnaceId;
      void w
        .run(async () => {
          const info = await this.repo.watched(researchId);
          if (info) w.scanPeriodS = info.scanPeriodS ?? this.options.defaultScanPeriodS;
        })
        .catch((e: Error) => this.failed(w, e));
    }
    const wasEnded = w.ended;
    w.ended = staff.ended;
    if (staff.ended) {
      // The test ended: its alarms are over, but a test still sending frames past its end.
      if (!wasEnded || [...w.open].some((k) => !k.startsWith('overrun|'))) {
        void w
          .run(async () => {
            for (const alarm of await this.alarms.clearAllBut(researchId, ['overrun']))
              w.open.delete(key(alarm.kind, alarm.subject));
          })
          .catch((e: Error) => this.failed(w, e));
      }
      return;
    }
    this.evaluate(w, staff);
  }

  dropped(researchId: string): void {
    const w = this.watched.get(researchId);
    if (!w) return;
    this.stop(w);
    this.watched.delete(researchId);
  }

  holds(researchId: string): boolean {
    const w = this.watched.get(researchId);
    return w !== undefined && !w.ended && Date.now() < w.endAt;
  }

  // --- Conditions ------------------------------------------------------------------------------------

  /** The conditions the views show: each raised while it holds, cleared when it ends. */
  private evaluate(w: Watched, staff: CriteriaView): void {
    const want = new Map<string, { kind: AlarmKind; subject: string; details: object }>();
    const add = (kind: AlarmKind, subject: string, details: object) =>
      want.set(key(kind, subject), { kind, subject, details });
    const excluded = new Set(staff.excluded);
    for (const s of staff.suspects)
      if (!excluded.has(s.thermo_id)) add('thermocouple', String(s.thermo_id), { reason: s.reason, time: s.time });
    const dev = staff.deviation;
    if (dev.ok === false) add('deviation', '', { value: dev.d_e, limit: dev.tolerance });
    const pressure = staff.pressure;
    if (pressure?.ok === false)
      add('pressure', '', { value: pressure.value, target: pressure.target, limit: pressure.tolerance });
    for (const f of staff.forecast)
      if (f.eta_s < this.options.forecastWithinS)
        add('forecast', f.criterion, { eta_s: f.eta_s, rate_k_per_min: f.rate_k_per_min });
    for (const f of staff.failures)
      if (!want.has(key('failure', f.criterion))) add('failure', f.criterion, { time: f.time, thermo_id: f.thermo_id });
    for (const [k, a] of want) if (!w.open.has(k)) this.raise(w, a.kind, a.subject, a.details);
    // Cleared when the condition ended; a judgement that cannot be made (d_e before 5 minutes) leaves it.
    for (const k of w.open) {
      const [kind, subject] = k.split('|') as [AlarmKind, string];
      if (want.has(k)) continue;
      const over =
        kind === 'thermocouple' ||
        kind === 'forecast' ||
        (kind === 'deviation' && dev.ok === true) ||
        (kind === 'pressure' && pressure?.ok === true);
      if (over) this.clear(w, kind, subject);
    }
  }

  /** How long without a frame is silence: missedScans scan periods, at least minSilenceS. */
  private silenceS(w: Watched): number {
    return silenceSeconds(w.scanPeriodS, {
      missedScans: this.options.missedScans,
      minSeconds: this.options.minSilenceS,
    });
  }

  /** Silence: silenceS after the newest frame; after the end, frames stopping ends an overrun. */
  private arm(w: Watched): void {
    if (w.timer) clearTimeout(w.timer);
    w.timer = null;
    if (w.dropped || w.lastFrameAt === null) return;
    const due = w.lastFrameAt + this.silenceS(w) * 1000;
    w.timer = setTimeout(() => this.silent(w), Math.max(0, due - Date.now()));
    w.timer.unref();
  }

  private silent(w: Watched): void {
    w.timer = null;
    const now = Date.now();
    if (w.ended || now >= w.endAt) {
      if (w.open.has(key('overrun'))) this.clear(w, 'overrun', '');
      return;
    }
    if (now < w.startAt) {
      // Not running yet: watched from its start.
      w.timer = setTimeout(() => this.silent(w), w.startAt - now);
      w.timer.unref();
      return;
    }
    if (w.open.has(key('silence'))) return;
    this.raise(w, 'silence', '', {
      last_frame_at: new Date(w.lastFrameAt ?? now).toISOString(),
      scan_period_s: w.scanPeriodS,
      missed_scans: this.options.missedScans,
      silence_s: this.silenceS(w),
    });
  }

  private raise(w: Watched, kind: AlarmKind, subject: string, details: object): void {
    const k = key(kind, subject);
    w.open.add(k);
    void w
      .run(async () => {
        await this.alarms.raise(w.researchId, kind, subject, details);
      })
      .catch((e: Error) => {
        w.open.delete(k);
        this.failed(w, e);
      });
  }

  private clear(w: Watched, kind: AlarmKind, subject: string): void {
    w.open.delete(key(kind, subject));
    void w
      .run(async () => void (await this.alarms.clear(w.researchId, kind, subject)))
      .catch((e: Error) => this.failed(w, e));
  }

  private stop(w: Watched): void {
    w.dropped = true;
    if (w.timer) clearTimeout(w.timer);
    w.timer = null;
  }

  /** Takes the lease of each running test nobody keeps (its owner died, or it went idle with no frame). */
  private async keepUnwatched(): Promise<void> {
    if (this.stopping) return;
    try {
      for (const id of await this.repo.unwatched()) {
        if (this.stopping) return;
        if (!this.watched.has(id)) await this.keeper.keep(id);
      }
    } catch (error) {
      this.logger.warn(`Running tests not watched: ${(error as Error).message}`);
    }
  }

  private failed(w: Watched, error: Error): void {
    this.logger.warn(`Alarms of ${w.researchId} not brought up to date: ${error.message}`);
  }
}
