import { classify, completedMinutes } from './classification';
import { DAQ_BOUNDS } from '@furnace/contracts';
import {
  DeviationAccumulator,
  type DeviationState,
  furnaceTolerance,
  pressureTolerance,
  withinTolerance,
} from './conformity';
import { heatingCurve } from './curves';
import { RunTracker, type RunState } from './exceedance';
import { FORECAST_WINDOW_S, forecastEta, SlopeWindow, type SlopeState } from './forecast';
import { HealthTracker, type HealthState, type SuspectEvent } from './health';
import { isIntegrityObservation } from './observations';
import { PeriodTracker, type PeriodState } from './periods';
import { classSystemOf, effectiveInsulation, profileRules, roleOf } from './profiles';
import { EARLIEST_FRAME_TIME_S, T0Estimator, type T0State } from './t0';
import type {
  CategoryView,
  CriteriaEngineInput,
  CriteriaFrame,
  CriteriaSnapshot,
  CriterionResult,
  Excursion,
  Failure,
  DeviationView,
  ForecastEntry,
  InsulationClass,
  InsulationCriterion,
  LimitView,
  Observation,
  PressureView,
  ProfileRules,
  Suspect,
  TestProfile,
  TypeRole,
} from '@furnace/contracts';

/** W criterion (EN 13501-2 §7.5, radiation): over 15 kW/m². */
export const RADIATION_LIMIT_KW_M2 = 15;

/** At most this many single-scan excursions are kept (the first ones). */
const MAX_EXCURSIONS = 500;

/** See CriteriaEngine.frameValues. */
export interface FrameValues {
  /** s since ignition of the newest frame; null before any. */
  time: number | null;
  t0: number | null;
  /** T0 no longer changes (fixed at the first frame after ignition with a reading, or set by staff). */
  t0_fixed: boolean;
  categories: { type_name: string; max: number | null; mean: number | null; valid: number }[];
  d_e: number | null;
}

/** Changes whenever the shape of CriteriaEngineState or the meaning of a field in it changes: a kept state of another version is recomputed. */
export const CRITERIA_STATE_VERSION = 2;

/**
 * Everything the engine has accumulated from the frames pushed so far, as JSON-able data: an engine
 * restored from it (`CriteriaEngine.restore`, with the same inputs) goes on exactly as the one saved
 * would have (docs/architecture.md, "The criteria: computed once, kept, pushed").
 */
export interface CriteriaEngineState {
  version: number;
  /** `CriteriaEngine.inputKey` of the inputs it was computed with. */
  input_key: string;
  frame_count: number;
  last_time: number | null;
  radiation_seen: boolean;
  failed_keys: string[];
  failures: Failure[];
  excursions: Excursion[];
  suspects: Suspect[];
  categories: { max: number | null; mean: number | null; valid: number }[];
  t0: T0State;
  deviation: DeviationState;
  deviation_periods: PeriodState;
  pressure: { value: number | null; time: number | null; periods: PeriodState };
  health: HealthState;
  /** Per insulation class judged (one, or I1 and I2 for a zoned door): the leaf and frame runs. */
  runs: { classes: { max: RunState; frame: RunState }[]; mean: RunState; w: RunState };
  slopes: { I_max: SlopeState; I_frame: SlopeState; I_mean: SlopeState[] };
}

/** One failure is kept per criterion, measurement type (category) and insulation class (a zoned door's I1 / I2). */
const failureKey = (
  criterion: Failure['criterion'],
  category: number | null,
  insulationClass: InsulationClass | null = null,
) => `${criterion}:${category ?? ''}:${insulationClass ?? ''}`;

/**
 * An insulation class judged on its own thermocouples: an EN 1634-1 door whose unexposed-face
 * thermocouples name their zones is judged for I1 and I2 at once (README.md, "Doors: I1 and I2"); any
 * other test for the one class its profile gives (or none).
 */
interface ClassJudge {
  /** null: not a door's class (only one judged, no zones). */
  readonly id: InsulationClass | null;
  /** The frame limit of this class (K above T0, or °C on the absolute basis). */
  readonly frameLimit: number;
  /** Entries counted for the leaf maximum / the frame. */
  readonly maxMembers: number[];
  readonly frameMembers: number[];
  readonly runsMax: RunTracker;
  readonly runsFrame: RunTracker;
}

interface Category {
  readonly typeName: string;
  readonly role: TypeRole;
  /** Entry indexes (one per thermocouple of the category). */
  readonly members: number[];
  /** Per member: its thermocouple index. */
  readonly thermos: number[];
  /** Per member: its index in a frame's thermocouples_out. */
  readonly channels: number[];
  /** Per member: whether it is valid in the current frame. */
  readonly counts: (member: number) => boolean;
  // Values at the newest frame:
  max: number | null;
  mean: number | null;
  valid: number;
}

/**
 * The fire-test criteria of one research, computed incrementally: `push` every frame in time order,
 * `snapshot` whenever the numbers are wanted (cheap: nothing is recomputed from the frames).
 * See README.md in this folder for what each number means.
 */
export class CriteriaEngine {
  private readonly rules: ProfileRules;
  private readonly profile: TestProfile;
  private readonly insulation: 'I1' | 'I2' | null;
  private readonly curve: (tSeconds: number) => number;
  private ended: boolean;
  private readonly inputs: CriteriaEngineInput;

  // Thermocouples, by index: thermo_id, channel (thermo_id − 1), exclusion start.
  private readonly thermoIds: number[] = [];
  private readonly channels: number[] = [];
  private readonly excludedFrom: number[] = [];
  // Entries (a thermocouple in a category; one listed under two types counts in both), by index.
  private readonly entryThermo: number[] = [];
  private readonly categoryOf: number[] = [];
  private readonly categories: Category[] = [];
  private readonly maxMembers: number[] = [];
  private readonly frameMembers: number[] = [];
  private readonly meanCategories: number[] = [];

  private readonly t0Markers: number[];
  private readonly t0: T0Estimator;
  private readonly deviation: DeviationAccumulator;
  private readonly deviationPeriods = new PeriodTracker();
  private readonly pressurePeriods = new PeriodTracker();
  /** The newest pressure reading after ignition and its time. */
  private pressure: { value: number | null; time: number | null } = { value: null, time: null };
  private readonly health: HealthTracker;
  /** The insulation classes judged (see ClassJudge). */
  private readonly judges: ClassJudge[];
  /** A zoned EN 1634-1 door: I1 and I2 are both judged. */
  private readonly dual: boolean;
  private readonly runsMean: RunTracker;
  private readonly runsW = new RunTracker(1);
  private readonly slopes: { I_max: SlopeWindow; I_frame: SlopeWindow; I_mean: SlopeWindow[] };

  /** Integrity observations in time order (README.md, "Integrity": a cotton pad after I no longer counts). */
  private integrity: Observation[] = [];
  private stoppedAt: number | null = null;

  private frameCount = 0;
  /** A radiation reading was seen after ignition (W can be judged). */
  private radiationSeen = false;
  private lastTime: number | null = null;
  private readonly failedKeys = new Set<string>();
  private readonly failures: Failure[] = [];
  private readonly excursions: Excursion[] = [];
  private readonly suspects: Suspect[] = [];
  private readonly valid: Uint8Array;
  /** Per thermocouple: its reading in the frame being pushed when valid there, else NaN. */
  private readonly current: Float64Array;
  private readonly faulted: Uint8Array;
  /** thermo_id → thermocouple index. */
  private readonly thermoIndex = new Map<number, number>();
  private cached: CriteriaSnapshot | null = null;

  constructor(input: CriteriaEngineInput) {
    this.inputs = input;
    this.rules = profileRules(input.profile);
    this.profile = input.profile;
    this.insulation = effectiveInsulation(input.profile);
    const curveId = input.profile.heating_curve;
    this.curve = (t) => heatingCurve(curveId, t);
    this.ended = input.ended ?? false;

    const exclusionStart = exclusionStarts(input);

    // A thermocouple marked twice in a category (on two photos) counts once there.
    const entryZone: (InsulationClass | null)[] = [];
    const categoryIndex = new Map<string, number>();
    const thermoIndex = new Map<number, number>();
    const seen = new Set<string>();
    for (const marker of input.markers) {
      const key = `${marker.thermo_id}:${marker.type_name}`;
      if (!Number.isInteger(marker.thermo_id) || marker.thermo_id < 1 || seen.has(key)) continue;
      seen.add(key);
      let category = categoryIndex.get(marker.type_name);
      if (category === undefined) {
        category = this.categories.length;
        categoryIndex.set(marker.type_name, category);
        const thermos: number[] = [];
        const counts = (member: number) => this.valid[thermos[member] as number] === 1;
        this.categories.push({
          typeName: marker.type_name,
          role: roleOf(this.rules, marker.type_name),
          members: [],
          thermos,
          channels: [],
          counts,
          max: null,
          mean: null,
          valid: 0,
        });
      }
      let thermo = thermoIndex.get(marker.thermo_id);
      if (thermo === undefined) {
        thermo = this.thermoIds.length;
        thermoIndex.set(marker.thermo_id, thermo);
        this.thermoIds.push(marker.thermo_id);
        this.channels.push(marker.thermo_id - 1);
        this.excludedFrom.push(exclusionStart.get(marker.thermo_id) ?? Number.POSITIVE_INFINITY);
      }
      const entry = this.entryThermo.length;
      this.entryThermo.push(thermo);
      entryZone.push(marker.zone ?? null);
      this.categoryOf.push(category);
      const cat = this.categories[category] as Category;
      cat.members.push(entry);
      cat.channels.push(marker.thermo_id - 1);
      cat.thermos.push(thermo);
      if (cat.role.max) this.maxMembers.push(entry);
      if (cat.role.frame) this.frameMembers.push(entry);
    }
    this.categories.forEach((category, i) => {
      if (category.role.mean) this.meanCategories.push(i);
    });

    const size = this.thermoIds.length;
    this.valid = new Uint8Array(size);
    this.current = new Float64Array(size).fill(Number.NaN);
    this.thermoIds.forEach((id, i) => this.thermoIndex.set(id, i));
    this.faulted = new Uint8Array(size);
    this.health = new HealthTracker(size);
    // EN 1634-1 §13.2 (I1 / I2): a door's thermocouples that name a zone make it judged for both classes, each
    // on the thermocouples of its zone and those of none; the frame limit is the class's own.
    this.dual =
      input.profile.standard === 'EN_1634_1' && this.rules.basis === 'rise' && entryZone.some((z) => z !== null);
    const classes: (InsulationClass | null)[] = this.dual ? ['I1', 'I2'] : [this.insulation];
    this.judges = classes.map((id) => {
      const counts = (e: number) => !this.dual || entryZone[e] === null || entryZone[e] === id;
      return {
        id: this.dual ? id : null,
        frameLimit: this.dual
          ? profileRules({ ...input.profile, insulation: id }).limits.frame
          : this.rules.limits.frame,
        maxMembers: this.maxMembers.filter(counts),
        frameMembers: this.frameMembers.filter(counts),
        runsMax: new RunTracker(this.entryThermo.length),
        runsFrame: new RunTracker(this.entryThermo.length),
      };
    });
    this.runsMean = new RunTracker(this.categories.length);
    this.slopes = {
      I_max: new SlopeWindow(),
      I_frame: new SlopeWindow(),
      I_mean: this.categories.map(() => new SlopeWindow()),
    };

    // T0 from the thermocouples counted for the mean; without any, from those counted for a criterion;
    // without any, from every thermocouple on the specimen.
    const thermosOf = (entries: number[]) => [...new Set(entries.map((e) => this.entryThermo[e] as number))];
    const meanIdx = thermosOf(this.meanCategories.flatMap((c) => (this.categories[c] as Category).members));
    const countedIdx = thermosOf([...this.maxMembers, ...this.frameMembers]);
    const t0Markers =
      meanIdx.length > 0 ? meanIdx : countedIdx.length > 0 ? countedIdx : this.thermoIds.map((_, i) => i);
    this.t0Markers = t0Markers;
    this.t0 = new T0Estimator(t0Markers.length, input.t0_override ?? null);
    this.deviation = new DeviationAccumulator(this.curve, true);

    this.setObservations(input.observations ?? []);
  }

  /**
   * Replaces the observations (one was added, changed or deleted): E and the test's end follow at once,
   * without pushing the frames again. Exclusions, T0 and the profile need a new engine.
   */
  setObservations(observations: readonly Observation[]): void {
    const sorted = [...observations].sort((a, b) => a.time - b.time);
    this.integrity = sorted.filter(isIntegrityObservation);
    this.stoppedAt = sorted.find((o) => o.kind === 'test_stopped')?.time ?? null;
    this.cached = null;
  }

  /** The test is over (or not): only the snapshot changes. */
  setEnded(ended: boolean): void {
    if (ended === this.ended) return;
    this.ended = ended;
    this.cached = null;
  }

  /** Time of the newest frame pushed (s since ignition); null before any. */
  get lastFrameTime(): number | null {
    return this.lastTime;
  }

  /** Frames pushed (and taken) so far. */
  get framesSeen(): number {
    return this.frameCount;
  }

  /**
   * What the accumulated state depends on besides the frames: the profile, the markers in their order (with their zones),
   * each thermocouple's exclusion start and a T0 set by hand. Observations and `ended` are not in it
   * (they change only the snapshot). Equal keys: a saved state can be restored with these inputs.
   */
  static inputKey(input: CriteriaEngineInput): string {
    const starts = exclusionStarts(input);
    const p = input.profile;
    return JSON.stringify([
      CRITERIA_STATE_VERSION,
      [
        p.standard,
        p.insulation,
        p.heating_curve,
        p.criteria_basis,
        p.planned_duration_min,
        p.pressure_target_pa,
        p.pressure_tolerance_pa,
      ],
      input.markers.map((m) => [m.thermo_id, m.type_name, m.zone ?? null]),
      [...starts].sort((a, b) => a[0] - b[0]),
      input.t0_override ?? null,
    ]);
  }

  /** The accumulated state (see CriteriaEngineState). */
  saveState(): CriteriaEngineState {
    return {
      version: CRITERIA_STATE_VERSION,
      input_key: CriteriaEngine.inputKey(this.inputs),
      frame_count: this.frameCount,
      last_time: this.lastTime,
      radiation_seen: this.radiationSeen,
      failed_keys: [...this.failedKeys],
      failures: this.failures.map((f) => ({ ...f })),
      excursions: this.excursions.map((e) => ({ ...e })),
      suspects: this.suspects.map((s) => ({ ...s })),
      categories: this.categories.map((c) => ({ max: c.max, mean: c.mean, valid: c.valid })),
      t0: this.t0.save(),
      deviation: this.deviation.save(),
      deviation_periods: this.deviationPeriods.save(),
      pressure: { ...this.pressure, periods: this.pressurePeriods.save() },
      health: this.health.save(),
      runs: {
        classes: this.judges.map((j) => ({ max: j.runsMax.save(), frame: j.runsFrame.save() })),
        mean: this.runsMean.save(),
        w: this.runsW.save(),
      },
      slopes: {
        I_max: this.slopes.I_max.save(),
        I_frame: this.slopes.I_frame.save(),
        I_mean: this.slopes.I_mean.map((s) => s.save()),
      },
    };
  }

  /**
   * An engine with `input` that goes on from `state`. Throws when the state was saved by another
   * version or with other inputs (see inputKey): the caller then computes from the frames again.
   *
   * Inputs that differ from the state's only in exclusions that start after ignition and after every
   * frame the state took are not other inputs for it: an exclusion changes nothing before its start
   * (a frame counts a thermocouple while its time is before the start; T0 leaves out only those excluded
   * from ignition or earlier), so the state is the one these inputs would have made from the same
   * frames. A staff member who excludes a thermocouple from a late time thus costs the frames after a
   * state saved before it, not the whole test (docs/architecture.md, "The criteria: computed once,
   * kept, pushed").
   */
  static restore(input: CriteriaEngineInput, state: CriteriaEngineState): CriteriaEngine {
    if (state.version !== CRITERIA_STATE_VERSION)
      throw new Error(`criteria state of version ${state.version}, this engine is version ${CRITERIA_STATE_VERSION}`);
    if (state.input_key !== CriteriaEngine.inputKey(input) && !unchangedBefore(state, input)) {
      throw new Error('criteria state was computed with other inputs (profile, markers, exclusions or T0)');
    }
    const engine = new CriteriaEngine(input);
    if (
      state.categories.length !== engine.categories.length ||
      state.slopes.I_mean.length !== engine.categories.length
    ) {
      throw new Error("criteria state does not match the research's categories");
    }
    engine.frameCount = state.frame_count;
    engine.lastTime = state.last_time;
    engine.radiationSeen = state.radiation_seen;
    for (const key of state.failed_keys) engine.failedKeys.add(key);
    engine.failures.push(...state.failures.map((f) => ({ ...f })));
    engine.excursions.push(...state.excursions.map((e) => ({ ...e })));
    engine.suspects.push(...state.suspects.map((s) => ({ ...s })));
    state.categories.forEach((saved, i) => Object.assign(engine.categories[i] as Category, saved));
    engine.t0.restore(state.t0);
    engine.deviation.restore(state.deviation);
    engine.deviationPeriods.restore(state.deviation_periods);
    engine.pressure = { value: state.pressure.value, time: state.pressure.time };
    engine.pressurePeriods.restore(state.pressure.periods);
    engine.health.restore(state.health);
    if (state.runs.classes.length !== engine.judges.length)
      throw new Error("criteria state does not match the research's insulation classes");
    state.runs.classes.forEach((runs, i) => {
      const judge = engine.judges[i] as ClassJudge;
      judge.runsMax.restore(runs.max);
      judge.runsFrame.restore(runs.frame);
    });
    engine.runsMean.restore(state.runs.mean);
    engine.runsW.restore(state.runs.w);
    engine.slopes.I_max.restore(state.slopes.I_max);
    engine.slopes.I_frame.restore(state.slopes.I_frame);
    state.slopes.I_mean.forEach((s, i) => (engine.slopes.I_mean[i] as SlopeWindow).restore(s));
    return engine;
  }

  push(frame: CriteriaFrame): void {
    const time = frame.time;
    if (!Number.isFinite(time) || time < EARLIEST_FRAME_TIME_S) return;
    if (this.lastTime !== null && time <= this.lastTime) return;
    this.lastTime = time;
    const n = this.frameCount++;
    this.cached = null;

    // (null too: a frame parsed from JSON may carry one.)
    const values: CriteriaFrame['thermocouples_out'] | null = frame.thermocouples_out;
    const suspects: SuspectEvent[] = [];

    // Which channels count in this frame: a reading, not faulted, not excluded. A value outside the DAQ
    // contract's bounds is a fault here too (the engine also runs on replays and imports, not only on
    // what the ingest let through). `current` holds each valid reading (NaN for the others): every
    // later step reads it, not the frame (docs/architecture.md: a 24-hour test is 26 million readings).
    const faulted = this.faulted;
    faulted.fill(0);
    const faults = frame.faults;
    if (faults !== undefined) {
      for (const id of faults) {
        const i = this.thermoIndex.get(id);
        if (i !== undefined) faulted[i] = 1;
      }
    }
    const valid = this.valid;
    const current = this.current;
    const channels = this.channels;
    const excludedFrom = this.excludedFrom;
    const size = channels.length;
    // After ignition with T0 already fixed (every frame but the first few), the health flags take each valid
    // reading in this same loop; their events follow the faults', as in two loops.
    const fusedT0 = time >= 0 && this.t0.isFixed ? (this.t0.current as { value: number }).value : null;
    const fused = fusedT0 !== null;
    const readingEvents: SuspectEvent[] = [];
    for (let i = 0; i < size; i += 1) {
      const value = values === undefined || values === null ? undefined : values[channels[i] as number];
      // NaN is how a stored frame marks a channel it has no value for: no reading, not a fault.
      const present = value !== null && value !== undefined && !Number.isNaN(value);
      if (faulted[i] === 1 || (present && !(value >= TEMPERATURE_MIN && value <= TEMPERATURE_MAX))) {
        faulted[i] = 1;
        this.health.fault(i, time, suspects);
      }
      if (present && faulted[i] === 0 && time < (excludedFrom[i] as number)) {
        valid[i] = 1;
        current[i] = value;
        if (fused) this.health.reading(i, value, n, time, fusedT0, readingEvents);
      } else {
        valid[i] = 0;
        current[i] = Number.NaN;
      }
    }

    // T0 is fixed before the first frame after ignition is judged. A thermocouple excluded from ignition
    // (or earlier) on is left out of T0 too.
    if (!this.t0.isFixed) {
      this.t0.push(time, (j) => {
        const i = this.t0Markers[j] as number;
        return valid[i] === 1 && (excludedFrom[i] as number) > 0 ? (current[i] as number) : null;
      });
    }
    const t0 = this.t0.current?.value ?? null;

    // Category max / mean over the valid thermocouples (categoryMaxMean's sums, in the same order).
    for (const category of this.categories) {
      const thermos = category.thermos;
      let max = Number.NEGATIVE_INFINITY;
      let sum = 0;
      let count = 0;
      for (let k = 0; k < thermos.length; k += 1) {
        const value = current[thermos[k] as number] as number;
        if (value !== value) continue; // NaN: not valid in this frame
        if (value > max) max = value;
        sum += value;
        count += 1;
      }
      category.valid = count;
      category.max = count > 0 ? max : null;
      category.mean = count > 0 ? sum / count : null;
    }

    const pk = boundedOrNull(frame.pk, TEMPERATURE);
    this.deviation.push(time, pk);
    if (time >= 0) {
      this.judgeFurnace(time, pk, boundedOrNull(frame.pressure, DAQ_BOUNDS.pressure));
      if (!fused) {
        for (let i = 0; i < size; i += 1) {
          if (valid[i] === 1) this.health.reading(i, current[i] as number, n, time, t0, readingEvents);
        }
      }
      this.judge(time, t0, boundedOrNull(frame.radiance, DAQ_BOUNDS.radiance));
    }
    for (const event of readingEvents) suspects.push(event);
    for (const event of suspects)
      this.suspects.push({ thermo_id: this.thermoIds[event.index] as number, reason: event.reason, time: event.time });
  }

  /**
   * The per-frame numbers at the newest frame, without the cost of a snapshot (for a row of an export
   * or a chart point): T0 so far, each category's max and mean over its valid thermocouples, d_e up to
   * this frame (null before ignition).
   */
  frameValues(): FrameValues {
    return {
      time: this.lastTime,
      t0: this.t0.current?.value ?? null,
      t0_fixed: this.t0.isFixed,
      categories: this.categories.map((c) => ({ type_name: c.typeName, max: c.max, mean: c.mean, valid: c.valid })),
      d_e: this.lastTime !== null && this.lastTime >= 0 ? this.deviation.deviation() : null,
    };
  }

  /** Threshold in °C of a criterion (the frame: of `judge`'s class); null on the rise basis while T0 is unknown. */
  private threshold(kind: 'mean' | 'max' | 'frame', t0: number | null, judge?: ClassJudge): number | null {
    const limit = kind === 'frame' && judge !== undefined ? judge.frameLimit : this.rules.limits[kind];
    if (this.rules.basis === 'absolute') return limit;
    return t0 === null ? null : t0 + limit;
  }

  /** d_e and the furnace pressure against their tolerances (EN 1363-1 §5.1.2, §5.2.2): the periods outside. */
  private judgeFurnace(time: number, pk: number | null, pressure: number | null): void {
    const tolerance = furnaceTolerance(time);
    const dE = pk === null ? null : this.deviation.deviation();
    if (tolerance !== null && dE !== null) this.deviationPeriods.judge(time, dE, tolerance);
    const target = this.profile.pressure_target_pa;
    if (pressure === null || target === null) return;
    this.pressure = { value: pressure, time };
    const band = pressureTolerance(this.profile, time);
    if (band !== null) this.pressurePeriods.judge(time, pressure - target, band);
  }

  /** One frame after ignition against the insulation and radiation limits; a missing reading is skipped (RunTracker). */
  private judge(time: number, t0: number | null, radiance: number | null): void {
    let topMax = Number.NEGATIVE_INFINITY;
    let topFrame = Number.NEGATIVE_INFINITY;
    // The forecast follows the hottest thermocouple counted for the leaf and for the frame: with one class
    // judged its members are all of them, so the judging pass gives it; a zoned door's two classes each see
    // only theirs, so it is taken over all of them once more.
    for (const judge of this.judges) {
      topMax = this.perThermo(
        'I_max',
        this.threshold('max', t0, judge),
        judge.maxMembers,
        judge.runsMax,
        judge.id,
        time,
      );
      topFrame = this.perThermo(
        'I_frame',
        this.threshold('frame', t0, judge),
        judge.frameMembers,
        judge.runsFrame,
        judge.id,
        time,
      );
    }
    if (this.dual) {
      topMax = this.hottestOf(this.maxMembers);
      topFrame = this.hottestOf(this.frameMembers);
    }
    if (topMax > Number.NEGATIVE_INFINITY) this.slopes.I_max.push(time, topMax);
    if (topFrame > Number.NEGATIVE_INFINITY) this.slopes.I_frame.push(time, topFrame);

    const cMean = this.threshold('mean', t0);
    for (const c of this.meanCategories) {
      const mean = (this.categories[c] as Category).mean;
      const event = this.runsMean.scan(c, mean === null ? null : cMean !== null && mean > cMean, time);
      if (event !== null) this.record('I_mean', event, null, c);
      if (mean !== null) (this.slopes.I_mean[c] as SlopeWindow).push(time, mean);
    }

    if (radiance !== null) this.radiationSeen = true;
    const event = this.runsW.scan(0, radiance === null ? null : radiance > RADIATION_LIMIT_KW_M2, time);
    if (event !== null) this.record('W', event, null, null);
  }

  /**
   * Judges each member (an entry) against the limit `c` (°C; null while unknown); returns the hottest
   * valid reading among them (for the forecast). A member with no valid reading is not scanned: RunTracker
   * skips a missing scan.
   */
  private perThermo(
    criterion: InsulationCriterion,
    c: number | null,
    members: readonly number[],
    runs: RunTracker,
    insulationClass: InsulationClass | null,
    time: number,
  ): number {
    const current = this.current;
    const entryThermo = this.entryThermo;
    let top = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < members.length; k += 1) {
      const e = members[k] as number;
      const value = current[entryThermo[e] as number] as number;
      if (value !== value) continue; // NaN: not valid in this frame
      if (value > top) top = value;
      const event = runs.scan(e, c !== null && value > c, time);
      if (event !== null) this.record(criterion, event, e, this.categoryOf[e] as number, insulationClass);
    }
    return top;
  }

  /** The hottest valid reading among the entries `members`; −∞ without any. */
  private hottestOf(members: readonly number[]): number {
    const current = this.current;
    let top = Number.NEGATIVE_INFINITY;
    for (const e of members) {
      const value = current[this.entryThermo[e] as number] as number;
      if (value > top) top = value;
    }
    return top;
  }

  /** The thermo_id of an entry. */
  private thermoOf(entry: number | null): number | null {
    return entry === null ? null : (this.thermoIds[this.entryThermo[entry] as number] as number);
  }

  private record(
    criterion: Failure['criterion'],
    event: NonNullable<ReturnType<RunTracker['scan']>>,
    entry: number | null,
    category: number | null,
    insulationClass: InsulationClass | null = null,
  ): void {
    const key = failureKey(criterion, category, insulationClass);
    if (this.failedKeys.has(key)) return;
    const thermoId = this.thermoOf(entry);
    const typeName = category === null ? null : (this.categories[category] as Category).typeName;
    if (event.kind === 'excursion') {
      if (this.excursions.length < MAX_EXCURSIONS)
        this.excursions.push({ criterion, time: event.time, thermo_id: thermoId });
      return;
    }
    this.failedKeys.add(key);
    this.failures.push({
      criterion,
      time: event.time,
      interval_from: event.intervalFrom,
      thermo_id: thermoId,
      type_name: typeName,
      ...(insulationClass === null ? {} : { insulation_class: insulationClass }),
    });
  }

  /** Once the test is over, a single scan over the limit not yet confirmed never will be: an excursion. */
  private unconfirmedAtEnd(): Excursion[] {
    const out: Excursion[] = [];
    if (!this.ended || this.frameCount === 0 || this.lastTime === null || this.lastTime < 0) return out;
    const add = (
      criterion: Failure['criterion'],
      time: number | null,
      entry: number | null,
      category: number | null,
      insulationClass: InsulationClass | null = null,
    ) => {
      if (time !== null && !this.failedKeys.has(failureKey(criterion, category, insulationClass)))
        out.push({ criterion, time, thermo_id: this.thermoOf(entry) });
    };
    for (const judge of this.judges) {
      for (const e of judge.maxMembers)
        add('I_max', judge.runsMax.pending(e), e, this.categoryOf[e] as number, judge.id);
      for (const e of judge.frameMembers)
        add('I_frame', judge.runsFrame.pending(e), e, this.categoryOf[e] as number, judge.id);
    }
    for (const c of this.meanCategories) add('I_mean', this.runsMean.pending(c), null, c);
    add('W', this.runsW.pending(0), null, null);
    return out;
  }

  /** What happened after the test was stopped does not count. */
  private counts(time: number): boolean {
    return this.stoppedAt === null || time <= this.stoppedAt;
  }

  /** The criteria at the newest frame. The same object is returned until the next change: treat it as read-only. */
  snapshot(): CriteriaSnapshot {
    if (this.cached !== null) return this.cached;
    const t0Info = this.t0.current;
    const t0 = t0Info?.value ?? null;
    const elapsed = this.lastTime;

    const hasRole = (kind: keyof TypeRole) => this.categories.some((c) => c.role[kind] && c.members.length > 0);
    const limitView = (kind: 'mean' | 'max' | 'frame'): LimitView | null => {
      if (!hasRole(kind)) return null;
      const limit = this.rules.limits[kind];
      if (this.rules.basis === 'absolute') return { k: null, c: limit, text: `${limit} °C` };
      if (t0 === null) return null;
      const c = t0 + limit;
      return { k: limit, c, text: `T0 + ${limit} K = ${c.toFixed(1)} °C` };
    };

    const categories: CategoryView[] = this.categories.map((category) => ({
      type_name: category.typeName,
      role: { ...category.role },
      max: category.max,
      mean: category.mean,
      max_rise: category.max !== null && t0 !== null ? category.max - t0 : null,
      mean_rise: category.mean !== null && t0 !== null ? category.mean - t0 : null,
      valid: category.valid,
      thermocouples: category.members.length,
    }));

    const failures = this.failures.filter((f) => this.counts(f.time)).sort((a, b) => a.time - b.time);
    const criteria = this.criteria(elapsed, failures);
    // Nothing to classify before ignition.
    const classification =
      elapsed === null || elapsed < 0
        ? null
        : classify(
            {
              E: criteria.countE,
              I: criteria.countI,
              W: criteria.countW,
              end: criteria.end,
              measured: { I: criteria.I.measured, W: criteria.W.measured },
              ...(criteria.countByClass === null ? {} : { insulation_classes: criteria.countByClass }),
            },
            { classes: classSystemOf(this.profile.standard), insulation: this.insulation },
          );

    this.cached = {
      t0,
      t0_source: t0Info?.source ?? null,
      elapsed,
      basis: this.rules.basis,
      limits: { mean: limitView('mean'), max: limitView('max'), frame: limitView('frame') },
      categories,
      deviation: this.deviationView(elapsed),
      pressure: this.pressureView(),
      failures,
      excursions: [...this.excursions, ...this.unconfirmedAtEnd()].filter((e) => this.counts(e.time)),
      criteria: { E: criteria.E, I: criteria.I, W: criteria.W },
      insulation_classes: criteria.byClass,
      classification,
      forecast: this.forecast(t0, failures),
      suspects: this.suspects.filter((f) => this.counts(f.time)),
      excluded: elapsed === null ? [] : this.thermoIds.filter((_, i) => elapsed >= (this.excludedFrom[i] as number)),
    };
    return this.cached;
  }

  /** d_e now (at the stop once the test was stopped: the furnace is off after it) and every period outside its tolerance. */
  private deviationView(elapsed: number | null): DeviationView {
    const at =
      this.stoppedAt !== null && elapsed !== null && this.stoppedAt < elapsed
        ? this.deviation.deviationAt(this.stoppedAt)
        : null;
    const dE = at !== null ? at.d_e : this.deviation.deviation();
    const devTime = at !== null ? at.time : this.deviation.time;
    const tolerance = devTime === null ? null : furnaceTolerance(devTime);
    return {
      d_e: dE,
      tolerance,
      ok: dE === null || tolerance === null ? null : withinTolerance(dE, tolerance),
      ...this.deviationPeriods.view(this.stoppedAt),
    };
  }

  private pressureView(): PressureView | null {
    const target = this.profile.pressure_target_pa;
    if (target === null) return null;
    const { value, time } = this.pressure;
    const tolerance = time === null ? null : pressureTolerance(this.profile, time);
    return {
      target,
      value,
      tolerance,
      ok: value === null || tolerance === null ? null : withinTolerance(value - target, tolerance),
      ...this.pressurePeriods.view(this.stoppedAt),
    };
  }

  /**
   * E, I, W results. A failure known only as an interval (t_prev, t] counts from t_prev: the specimen is
   * only known to have held until then. E ends at the first integrity observation, except a cotton pad at
   * or after the first insulation failure (EN 1363-1 §11.2: the pad is no longer applied once I has
   * failed; the gap gauges and sustained flaming still judge E). I not measured (no thermocouple counts
   * for it) and W not measured (no radiation reading) are never reported as held; W without a radiometer
   * is deemed met while I holds (EN 13501-2, the W criterion).
   */
  private criteria(elapsed: number | null, failures: readonly Failure[]) {
    const seen = (time: number | null) =>
      time !== null && (this.ended || (elapsed !== null && time <= elapsed)) ? time : null;
    const stopped = seen(this.stoppedAt);
    const end = stopped ?? Math.max(0, elapsed ?? 0);
    const earliest = (values: number[]) => (values.length > 0 ? Math.min(...values) : null);
    // A zoned door's class counts the failures of its own thermocouples and the mean's (shared by both).
    const ofClass = (id: InsulationClass | null) => (f: Failure) =>
      f.criterion !== 'W' && (id === null || f.insulation_class === undefined || f.insulation_class === id);
    const firstOf = (list: Failure[]) => earliest(list.map((f) => f.time));
    const heldOf = (list: Failure[]) => earliest(list.map((f) => f.interval_from ?? f.time));
    const primary = this.dual ? (this.insulation ?? 'I2') : null;
    const insulationFailures = failures.filter(ofClass(primary));
    const wFailures = failures.filter((f) => f.criterion === 'W');
    const iMeasured = this.maxMembers.length + this.frameMembers.length + this.meanCategories.length > 0;
    const wMeasured = this.radiationSeen;
    // For a zoned door, the profile's own class decides when the cotton pad stops counting.
    const iFailed = iMeasured ? firstOf(insulationFailures) : null;
    const integrity = this.integrity.find((o) => o.kind !== 'cotton_pad' || iFailed === null || o.time < iFailed);
    const countE = integrity !== undefined && this.counts(integrity.time) ? seen(integrity.time) : null;
    const countI = heldOf(insulationFailures);
    const countW = heldOf(wFailures);

    const eMinutes = completedMinutes(countE ?? end);
    const result = (
      time: number | null,
      countTime: number | null,
      cap: number | null,
      measured = true,
    ): CriterionResult => {
      if (!measured)
        return { time: null, minutes: null, reached: false, held_minutes: null, measured: false, deemed: false };
      const reached = time !== null;
      const own = completedMinutes(countTime ?? end);
      const minutes = cap === null ? own : Math.min(own, cap);
      return {
        time,
        minutes: reached || this.ended ? minutes : null,
        reached,
        held_minutes: elapsed === null ? null : minutes,
        measured: true,
        deemed: false,
      };
    };
    const I = result(iFailed, countI, eMinutes, iMeasured);
    const W = wMeasured
      ? result(firstOf(wFailures), countW, eMinutes)
      : iMeasured
        ? { ...I, time: null, reached: false, measured: false, deemed: true }
        : result(null, null, null, false);
    let byClass: { I1: CriterionResult; I2: CriterionResult } | null = null;
    let countByClass: { I1: number | null; I2: number | null } | null = null;
    if (this.dual) {
      const of = (id: InsulationClass) => failures.filter(ofClass(id));
      countByClass = { I1: heldOf(of('I1')), I2: heldOf(of('I2')) };
      byClass = {
        I1: result(iMeasured ? firstOf(of('I1')) : null, countByClass.I1, eMinutes, iMeasured),
        I2: result(iMeasured ? firstOf(of('I2')) : null, countByClass.I2, eMinutes, iMeasured),
      };
    }
    return { E: result(countE, countE, null), I, W, byClass, countE, countI, countW, countByClass, end };
  }

  private forecast(t0: number | null, failures: readonly Failure[]): ForecastEntry[] {
    const out: ForecastEntry[] = [];
    const elapsed = this.lastTime;
    // A forecast helps decide when to stop: none once the test is over, none before 5 minutes of data.
    const stopped = this.stoppedAt !== null && elapsed !== null && this.stoppedAt <= elapsed;
    if (this.ended || stopped || elapsed === null || elapsed < FORECAST_WINDOW_S) return out;
    const add = (criterion: InsulationCriterion, windows: SlopeWindow[], kind: 'mean' | 'max' | 'frame') => {
      if (failures.some((f) => f.criterion === criterion)) return;
      const c = this.threshold(
        kind,
        t0,
        this.judges.find((j) => j.id === (this.dual ? (this.insulation ?? 'I2') : null)),
      );
      if (c === null) return;
      let best: ForecastEntry | null = null;
      for (const window of windows) {
        const latest = window.latest;
        const slope = window.slope();
        if (latest === null || slope === null || latest.time !== elapsed) continue;
        const eta = forecastEta(latest.value, c, slope);
        if (eta !== null && (best === null || eta < best.eta_s))
          best = { criterion, eta_s: eta, rate_k_per_min: slope * 60, at_s: elapsed + eta };
      }
      if (best !== null) out.push(best);
    };
    add(
      'I_mean',
      this.meanCategories.map((c) => this.slopes.I_mean[c] as SlopeWindow),
      'mean',
    );
    add('I_max', this.maxMembers.length > 0 ? [this.slopes.I_max] : [], 'max');
    add('I_frame', this.frameMembers.length > 0 ? [this.slopes.I_frame] : [], 'frame');
    return out;
  }
}

const TEMPERATURE = DAQ_BOUNDS.temperature;
const TEMPERATURE_MIN = TEMPERATURE.min;
const TEMPERATURE_MAX = TEMPERATURE.max;

function inBounds(value: number, bounds: { min: number; max: number }): boolean {
  return Number.isFinite(value) && value >= bounds.min && value <= bounds.max;
}

/** A reading within the DAQ contract's bounds, else null (not a reading). */
function boundedOrNull(value: number | null | undefined, bounds: { min: number; max: number }): number | null {
  return value !== null && value !== undefined && inBounds(value, bounds) ? value : null;
}

/** Each thermocouple's exclusion start: the earliest from_time of its exclusions. */
function exclusionStarts(input: CriteriaEngineInput): Map<number, number> {
  const starts = new Map<number, number>();
  for (const e of input.exclusions ?? []) {
    const previous = starts.get(e.thermo_id);
    if (previous === undefined || e.from_time < previous) starts.set(e.thermo_id, e.from_time);
  }
  return starts;
}

/**
 * The state's inputs and `input` differ at most in exclusion starts that lie after ignition and after
 * the state's newest frame (see restore). Compares the keys with the starts taken out.
 */
function unchangedBefore(state: CriteriaEngineState, input: CriteriaEngineInput): boolean {
  let saved: unknown[];
  try {
    saved = JSON.parse(state.input_key) as unknown[];
  } catch {
    return false;
  }
  const current = JSON.parse(CriteriaEngine.inputKey(input)) as unknown[];
  if (!Array.isArray(saved) || saved.length !== current.length) return false;
  const startsAt = 3;
  const rest = (key: unknown[]) => JSON.stringify(key.filter((_, i) => i !== startsAt));
  if (rest(saved) !== rest(current)) return false;
  const before = new Map(saved[startsAt] as [number, number][]);
  const after = exclusionStarts(input);
  const covered = state.last_time ?? Number.NEGATIVE_INFINITY;
  for (const thermo of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(thermo) ?? Number.POSITIVE_INFINITY;
    const b = after.get(thermo) ?? Number.POSITIVE_INFINITY;
    if (a === b) continue;
    const changedFrom = Math.min(a, b);
    if (!(changedFrom > 0 && changedFrom > covered)) return false;
  }
  return true;
}
