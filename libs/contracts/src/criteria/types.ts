/*
 * Shapes of the fire-test criteria, shared by the engine (libs/criteria), the API and the dashboard.
 * Wire names are snake_case: they travel as they are on the Research API object and in the DB.
 * What each number means and how it is computed: libs/criteria/README.md.
 */

/** The standard (and element) a research is tested and classified to. */
export type TestStandard = 'EN_1363_1' | 'EN_1634_1' | 'EN_1364_1' | 'DIN_4102_5';

/** Insulation class of a door or shutter (EN 1634-1); null for the other standards. */
export type InsulationClass = 'I1' | 'I2';

/** The furnace heating curve (EN 1363-1 §5.1.1, EN 1363-2 §4–§6). */
export type HeatingCurveId = 'iso834' | 'hydrocarbon' | 'external' | 'slow';

/**
 * 'rise': limits are rises in K above T0 (as the standards define them; default for new researches).
 * 'absolute': limits are the spec's numbers as absolute °C (researches that existed before the profile).
 */
export type CriteriaBasis = 'rise' | 'absolute';

export interface TestProfile {
  standard: TestStandard;
  /** Meaningful for EN_1634_1 only ('I2' when null there); null otherwise. */
  insulation: InsulationClass | null;
  heating_curve: HeatingCurveId;
  criteria_basis: CriteriaBasis;
  /** Integer minutes. */
  planned_duration_min: number | null;
  /** Furnace pressure target, Pa. */
  pressure_target_pa: number | null;
  /** ± around the target, Pa. */
  pressure_tolerance_pa: number | null;
}

/** Which criteria a measurement type counts for in a profile. */
export interface TypeRole {
  mean: boolean;
  max: boolean;
  frame: boolean;
}

export interface ProfileRules {
  /** By measurement type name; a type absent here counts for nothing. */
  byType: Record<string, TypeRole>;
  /** K above T0 ('rise') or absolute °C ('absolute'). */
  limits: { mean: number; max: number; frame: number };
  basis: CriteriaBasis;
}

/**
 * Times (s since ignition) at which the criteria failed, for the classification.
 * null = not reached (yet); `end` is then the time that counts: the test's end, or the newest frame live.
 */
export interface CriterionTimes {
  E: number | null;
  I: number | null;
  W: number | null;
  end: number;
  /**
   * false when the criterion could not be judged (no thermocouple counts for insulation; no radiation
   * reading): its part (EI, EW) is left out of the class. Missing = measured.
   */
  measured?: { I?: boolean; W?: boolean };
  /** A zoned EN 1634-1 door: I1's and I2's own failure times (null = not reached); EI1 and EI2 are both written. */
  insulation_classes?: { I1: number | null; I2: number | null };
}

/**
 * The periods (minutes) EN 13501-2 gives an element for each part of its class. A time is classified
 * as the largest period of its list not above it; a period not in the list is never given.
 */
export interface ClassPeriods {
  readonly E: readonly number[];
  readonly EI: readonly number[];
  readonly EW: readonly number[];
}

/**
 * How a standard's result is classified: EN 13501-2 with the element's own period lists, or DIN 4102-5's
 * own fire-resistance classes "T 30" … "T 180" (never in EN 13501-2's terms).
 */
export type ClassSystem =
  | { readonly system: 'EN_13501_2'; readonly periods: ClassPeriods }
  | { readonly system: 'DIN_4102_5'; readonly periods: readonly number[] };

export interface ClassifyOptions {
  /** The element's period lists or the standard's own classes: `classSystemOf(profile.standard)`. */
  classes: ClassSystem;
  /** EN 1634-1 insulation class: written "EI1 …" / "EI2 …" instead of "EI …". */
  insulation?: InsulationClass | null;
}

export type ObservationKind = 'cotton_pad' | 'gap_6mm' | 'gap_25mm' | 'sustained_flaming' | 'note' | 'test_stopped';

export interface Observation {
  id: string;
  /** s since ignition. */
  time: number;
  kind: ObservationKind;
  note: string | null;
  visible_to_clients: boolean;
  created_by?: string | null;
  created_at?: string;
}

export interface ThermoExclusion {
  id: string;
  thermo_id: number;
  /** s since ignition: the thermocouple is not counted from this time on. */
  from_time: number;
  reason: string;
  created_by?: string | null;
  created_at?: string;
}

/** One DAQ scan, shaped like the live DATA payload. */
export interface CriteriaFrame {
  /** s since ignition; negative before ignition (down to −3600). */
  time: number;
  /** Mean furnace temperature, °C. */
  pk?: number | null;
  /** Pa. */
  pressure?: number | null;
  /** kW/m². */
  radiance?: number | null;
  /**
   * °C; index i is thermo_id i + 1. A Float64Array (NaN where a channel has no reading) is read the same:
   * the server's pass over a stored test hands its decoded rows over so, without a copy per frame.
   */
  thermocouples_out?: readonly (number | null)[] | Float64Array;
  /** thermo_ids whose channel was out of range (its value nulled by the ingest). */
  faults?: readonly number[];
}

export interface CriteriaMarker {
  thermo_id: number;
  type_name: string;
  /**
   * EN 1634-1 door: the insulation class this unexposed-face thermocouple counts for (its zone: I1 at
   * 25 mm, I2 at 100 mm from the edge); null or absent: both. Any zone makes a door judged for I1 and I2.
   */
  zone?: InsulationClass | null;
}

export interface CriteriaEngineInput {
  profile: TestProfile;
  markers: readonly CriteriaMarker[];
  exclusions?: readonly ThermoExclusion[];
  observations?: readonly Observation[];
  t0_override?: number | null;
  /** The test is over: criteria not reached are "not reached". */
  ended?: boolean;
}

export interface LimitView {
  /** Rise in K; null on the absolute basis. */
  k: number | null;
  /** Threshold, °C. */
  c: number;
  /** "T0 + 180 K = 200.3 °C" or "180 °C". */
  text: string;
}

export interface CategoryView {
  type_name: string;
  role: TypeRole;
  /** °C over the valid thermocouples of the category; null when none is valid. */
  max: number | null;
  mean: number | null;
  /** K above T0; null without T0 or without a valid thermocouple. */
  max_rise: number | null;
  mean_rise: number | null;
  /** Thermocouples counted at the newest frame (not excluded, not faulted, not null). */
  valid: number;
  /** Thermocouples of the category on the specimen. */
  thermocouples: number;
}

export type InsulationCriterion = 'I_mean' | 'I_max' | 'I_frame';
export type FailureCriterion = InsulationCriterion | 'W';

export interface Failure {
  criterion: FailureCriterion;
  /** s: the first of the two consecutive scans over the limit. */
  time: number;
  /** Set when a gap > 60 s precedes the failing scan: the failure lies in (interval_from, time]. */
  interval_from: number | null;
  /** The thermocouple (max, frame) or null (mean, W). */
  thermo_id: number | null;
  type_name: string | null;
  /** A zoned door's leaf or frame failure: the insulation class it counts for (absent otherwise). */
  insulation_class?: InsulationClass;
}

export interface Excursion {
  criterion: string;
  time: number;
  thermo_id: number | null;
}

export interface CriterionResult {
  /** s since ignition at which it failed; null = not reached. */
  time: number | null;
  /** Completed minutes that count for the classification (I, W capped at E; the end when not reached and ended); null when not measured. */
  minutes: number | null;
  reached: boolean;
  /** Live: completed minutes the criterion has held so far; null when not measured. */
  held_minutes: number | null;
  /**
   * false when nothing measured it: I without a thermocouple counted for insulation, W without a radiation
   * reading after ignition. A criterion not measured is never reported as held (libs/criteria/README.md, "Not measured").
   */
  measured: boolean;
  /**
   * W only: not measured, but deemed met for as long as I holds (EN 13501-2, W criterion): its minutes are
   * I's. Always false for E and I.
   */
  deemed: boolean;
}

export interface ForecastEntry {
  criterion: InsulationCriterion;
  /** Seconds from the newest frame until the limit is reached at the current rate. */
  eta_s: number;
  /** K per minute over the last 5 minutes. */
  rate_k_per_min: number;
  /** s since ignition at which the limit is reached (newest frame time + eta_s). */
  at_s?: number;
}

export type SuspectReason = 'jump' | 'below_t0' | 'stuck' | 'fault';

export interface Suspect {
  thermo_id: number;
  reason: SuspectReason;
  /** s: when the flag was first raised. */
  time: number;
}

/**
 * A stretch of consecutive judged frames outside a tolerance: d_e outside EN 1363-1 §5.1.2's, or the furnace
 * pressure outside §5.2's band. A frame without the value (no pk, no pressure reading) neither ends nor
 * starts a period.
 */
export interface TolerancePeriod {
  /** s since ignition: the first frame outside. */
  from: number;
  /** s: the last frame outside (so far, while `open`). */
  to: number;
  /** Still outside at the newest judged frame. */
  open: boolean;
  /** The value at the frame furthest outside (d_e in %; pressure minus its target in Pa), signed. */
  worst: number;
  /** The tolerance (±) at that frame. */
  worst_tolerance: number;
  /** s: the time of that frame. */
  worst_time: number;
}

export interface DeviationView {
  /** Percent, at the newest frame (at the stop, once a test_stopped observation is past). */
  d_e: number | null;
  /** ±%, at that frame; null for t ≤ 5 min. */
  tolerance: number | null;
  /** d_e within its tolerance at that frame; null without a tolerance. */
  ok: boolean | null;
  /** Every period with d_e outside its tolerance, in time order (the first 100). */
  periods: TolerancePeriod[];
  /** false once any frame was outside (see periods); true when every judged frame was within; null before any was judged. */
  conforming: boolean | null;
}

/** The furnace pressure judged against the profile's target (EN 1363-1 §5.2); absent from a snapshot whose profile sets no target. */
export interface PressureView {
  /** Pa, at the stated measurement height. */
  target: number;
  /** Pa, the newest reading; null without one. */
  value: number | null;
  /** ±Pa at the newest reading; null before 5 min. */
  tolerance: number | null;
  ok: boolean | null;
  periods: TolerancePeriod[];
  conforming: boolean | null;
}

export interface CriteriaSnapshot {
  t0: number | null;
  t0_source: 'auto' | 'first_frame' | 'override' | null;
  /** Time of the newest frame, s. */
  elapsed: number | null;
  basis: CriteriaBasis;
  limits: { mean: LimitView | null; max: LimitView | null; frame: LimitView | null };
  categories: CategoryView[];
  deviation: DeviationView;
  /** null when the profile sets no pressure target. */
  pressure: PressureView | null;
  failures: Failure[];
  excursions: Excursion[];
  /** I is the profile's insulation class (I2 for a door unless I1 is set). */
  criteria: { E: CriterionResult; I: CriterionResult; W: CriterionResult };
  /** A door whose thermocouples name their zones: I1 and I2 each on its own (null otherwise). */
  insulation_classes: { I1: CriterionResult; I2: CriterionResult } | null;
  /**
   * The class in the standard's own notation, from the element's own period lists: "E 60, EI 45, EW 60"
   * (EN 13501-2), "T 30" (DIN 4102-5); '' when no period is reached; null before ignition.
   */
  classification: string | null;
  /** Only those less than 15 minutes away. */
  forecast: ForecastEntry[];
  suspects: Suspect[];
  /** thermo_ids excluded at the newest frame. */
  excluded: number[];
}

/**
 * The criteria of a research as the server keeps them (GET /research/{id}/criteria and the live
 * stream's CRITERIA message): the engine's snapshot plus what only the server knows.
 */
export interface CriteriaView extends CriteriaSnapshot {
  /** The test is over (past end_at, or a test_stopped observation): criteria not reached are "not reached". */
  ended: boolean;
  /**
   * Staff chose not to show the research's clients the classification: in the clients' view the class
   * and the E/I/W minutes are null (never different numbers: everyone's view is computed from every
   * observation). Always false in the staff view.
   */
  classification_withheld: boolean;
  /** Wall-clock time of ignition (time 0), ISO 8601; null when no frame dates it. */
  ignition_at: string | null;
}
