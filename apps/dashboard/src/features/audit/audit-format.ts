/*
 * An audit entry (docs/behaviour.md, "The audit trail") in a compact, readable form: what was changed and how,
 * each field as "label: before → after"; a config's thermocouples as what was added, removed and changed.
 */
import type { AuditEntryDto } from '@furnace/api-client';
import type { TFunction } from 'i18next';
import { type AuditTranslation, CATALOGUES } from '@furnace/text';
import { formatDateTime } from '../../lib/dates';

export type AuditEntry = AuditEntryDto;
type Values = Record<string, unknown>;

/** One field of a change, as it was and as it is (null: that side does not exist, a creation or a deletion). */
export interface ChangeLine {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
  /** What changed inside a list (the thermocouples of a config). */
  note?: string;
}

const has = <T extends object>(tree: T, key: string): key is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(tree, key);

/** A field by its label; one the dashboard does not know (a newer API's) by its name. */
function fieldLabel(key: string, t: TFunction<'audit'>): string {
  return has(CATALOGUES.pl.audit.field, key) ? t(`field.${key as keyof AuditTranslation['field']}`) : key;
}

export function entityLabel(entity: string, t: TFunction<'audit'>): string {
  return has(CATALOGUES.pl.audit.entity, entity) ? t(`entity.${entity as keyof AuditTranslation['entity']}`) : entity;
}

export function actionLabel(action: string, t: TFunction<'audit'>): string {
  return has(CATALOGUES.pl.audit.action, action) ? t(`action.${action as keyof AuditTranslation['action']}`) : action;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const LONG_TEXT = 120;

const bytes = (n: number) =>
  n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} MB` : n >= 1000 ? `${Math.round(n / 1000)} kB` : `${n} B`;
const shortText = (s: string) => (s.length > LONG_TEXT ? `${s.slice(0, LONG_TEXT - 1)}…` : s);
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A value as staff read it: dates in Warsaw time, yes/no, files by name, size and the start of their digest. */
function formatValue(value: unknown, field: string, t: TFunction<'audit'>): string {
  if (value === null || value === undefined || value === '') return t('none');
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (typeof value === 'number') return field === 'size' ? bytes(value) : String(value);
  if (typeof value === 'string') {
    if (field === 'sha256') return `${value.slice(0, 12)}…`;
    return ISO_DATE_TIME.test(value) ? formatDateTime(value) : shortText(value);
  }
  if (Array.isArray(value))
    return field === 'markers' ? t('markers.count', { count: value.length }) : String(value.length);
  if (typeof value === 'object') {
    const file = value as Values;
    if (typeof file.name === 'string') {
      const parts = [
        file.name,
        typeof file.size === 'number' ? bytes(file.size) : null,
        typeof file.sha256 === 'string' ? `${file.sha256.slice(0, 12)}…` : null,
      ];
      return parts.filter(Boolean).join(' · ');
    }
  }
  return shortText(JSON.stringify(value));
}

interface MarkerValues {
  thermo_id: number;
  name?: string;
}

const markersOf = (value: unknown): MarkerValues[] => (Array.isArray(value) ? (value as MarkerValues[]) : []);

/** What changed among a config's thermocouples: added, removed and changed ones, by their names. */
export function markersChange(before: unknown, after: unknown, t: TFunction<'audit'>): string {
  const was = new Map(markersOf(before).map((m) => [m.thermo_id, m]));
  const is = new Map(markersOf(after).map((m) => [m.thermo_id, m]));
  const name = (m: MarkerValues) => m.name || `#${m.thermo_id}`;
  const added = [...is.values()].filter((m) => !was.has(m.thermo_id)).map(name);
  const removed = [...was.values()].filter((m) => !is.has(m.thermo_id)).map(name);
  const changed = [...is.values()].filter((m) => was.has(m.thermo_id) && !sameValue(was.get(m.thermo_id), m)).map(name);
  const parts = [
    added.length ? t('markers.added', { ids: added.join(', ') }) : null,
    removed.length ? t('markers.removed', { ids: removed.join(', ') }) : null,
    changed.length ? t('markers.changed', { ids: changed.join(', ') }) : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join('; ') : t('markers.same');
}

/** The fields that name what a creation made or a deletion removed, by entity; others show every field. */
const SUMMARY: Readonly<Record<string, readonly string[]>> = {
  research: ['name', 'start_at', 'end_at'],
  thermo_config: ['image', 'config_file', 'markers'],
  drawing: ['name', 'size'],
  email: ['email'],
  url: ['url'],
  observation: ['time', 'kind', 'note'],
  exclusion: ['thermo_id', 'from_time', 'reason'],
  user: ['email', 'full_name', 'is_superuser', 'is_active'],
};

function line(
  field: string,
  before: unknown,
  after: unknown,
  sides: { before: boolean; after: boolean },
  t: TFunction<'audit'>,
): ChangeLine {
  const out: ChangeLine = {
    field,
    label: fieldLabel(field, t),
    before: sides.before ? formatValue(before, field, t) : null,
    after: sides.after ? formatValue(after, field, t) : null,
  };
  if (field === 'markers' && sides.before && sides.after) out.note = markersChange(before, after, t);
  return out;
}

/**
 * The entry's change, line by line: a changed field as it was and is (every field whose value differs); a creation
 * by what names the new row, a deletion by what named the removed one.
 */
export function describeChange(entry: AuditEntry, t: TFunction<'audit'>): ChangeLine[] {
  const before = entry.before as Values | null;
  const after = entry.after as Values | null;
  if (before && after) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changed = keys.filter((k) => !sameValue(before[k], after[k]));
    return changed.map((k) => line(k, before[k], after[k], { before: true, after: true }, t));
  }
  const values = after ?? before;
  if (!values) return [];
  const keys = SUMMARY[entry.entity]?.filter((k) => k in values) ?? Object.keys(values);
  return keys.map((k) => line(k, values[k], values[k], { before: !after, after: !!after }, t));
}
