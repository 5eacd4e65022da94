import type { FailureCriterion, ObservationKind, SuspectReason } from './types';

/*
 * The names of the criteria's words in Polish and English, as the product shows them, for what the
 * server writes (a lab's exports and reports). The dashboard keeps the same strings in its own Polish texts
 * (apps/dashboard/src/i18n/criteria.{pl,en}.ts): its start-up bundle must not import this library, whose
 * schemas probe for eval, which the Content-Security-Policy forbids.
 */

export const CRITERION_LABELS_PL: Readonly<Record<'E' | 'I' | 'W' | FailureCriterion, string>> = {
  E: 'E (szczelność)',
  I: 'I (izolacyjność)',
  W: 'W (promieniowanie)',
  I_mean: 'I – średnia',
  I_max: 'I – maksimum',
  I_frame: 'I – rama',
};

export const SUSPECT_LABELS_PL: Readonly<Record<SuspectReason, string>> = {
  jump: 'skok > 50 K',
  below_t0: 'poniżej T0 − 10 K',
  stuck: 'stała wartość przez 2 min',
  fault: 'awaria kanału',
};

export const OBSERVATION_LABELS_PL: Readonly<Record<ObservationKind, string>> = {
  cotton_pad: 'Zapłon tamponu bawełnianego',
  gap_6mm: 'Szczelinomierz 6 mm',
  gap_25mm: 'Szczelinomierz 25 mm',
  sustained_flaming: 'Płomień trwały',
  note: 'Notatka',
  test_stopped: 'Zatrzymanie badania',
};

export const CRITERION_LABELS_EN: Readonly<Record<keyof typeof CRITERION_LABELS_PL, string>> = {
  E: 'E (integrity)',
  I: 'I (insulation)',
  W: 'W (radiation)',
  I_mean: 'I – mean',
  I_max: 'I – maximum',
  I_frame: 'I – frame',
};

export const SUSPECT_LABELS_EN: Readonly<Record<SuspectReason, string>> = {
  jump: 'jump > 50 K',
  below_t0: 'below T0 − 10 K',
  stuck: 'stuck for 2 min',
  fault: 'channel fault',
};

export const OBSERVATION_LABELS_EN: Readonly<Record<ObservationKind, string>> = {
  cotton_pad: 'Cotton pad ignited',
  gap_6mm: '6 mm gap gauge',
  gap_25mm: '25 mm gap gauge',
  sustained_flaming: 'Sustained flaming',
  note: 'Note',
  test_stopped: 'Test stopped',
};
