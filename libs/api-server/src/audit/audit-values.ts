import type {
  FurnaceEntity,
  ObservationEntity,
  ResearchDrawingEntity,
  ResearchEntity,
  ThermoConfigEntity,
  ThermoExclusionEntity,
  ThermoMarkerEntity,
  UserEntity,
} from '@furnace/db';

/*
 * What an audit entry keeps of each kind of row: the fields that matter, by the API's own names, never a file's
 * bytes, a password, its hash or a client's access code (docs/behaviour.md, "The audit trail").
 */

export type AuditValues = Record<string, unknown>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The research's own fields (the test profile, T0 and the report fields are entries of their own). */
const researchValues = (r: ResearchEntity): AuditValues => ({
  name: r.name,
  start_at: iso(r.startAt),
  end_at: iso(r.endAt),
  is_radiance: r.isRadiance,
  is_furnance: r.isFurnance,
  is_pressure: r.isPressure,
  classification_to_clients: r.classificationToClients,
  furnace_id: r.furnaceId,
  responsible_user_id: r.responsibleUserId,
});

const profileValues = (r: ResearchEntity): AuditValues => ({
  standard: r.standard,
  insulation: r.insulation,
  heating_curve: r.heatingCurve,
  criteria_basis: r.criteriaBasis,
  planned_duration_min: r.plannedDurationMin,
  pressure_target_pa: r.pressureTargetPa,
  pressure_tolerance_pa: r.pressureTolerancePa,
});

const t0Values = (r: ResearchEntity): AuditValues => ({ t0_override: r.t0Override });

const reportValues = (r: ResearchEntity): AuditValues => ({
  sponsor: r.sponsor,
  manufacturer: r.manufacturer,
  specimen_description: r.specimenDescription,
  conditioning: r.conditioning,
  supporting_construction: r.supportingConstruction,
  exposed_side: r.exposedSide,
  ambient_temperature_c: r.ambientTemperatureC,
  pressure_height_mm: r.pressureHeightMm,
  end_reason: r.endReason,
  deviations: r.deviations,
  report_number: r.reportNumber,
  report_date: r.reportDate,
});

/** Everything a research holds, for its creation and its deletion. */
export const wholeResearchValues = (r: ResearchEntity): AuditValues => ({
  ...researchValues(r),
  ...profileValues(r),
  ...t0Values(r),
  ...reportValues(r),
});

/** The groups of a research's fields, each audited as its own entity when a change touches it. */
export const RESEARCH_GROUPS: readonly { entity: string; values: (r: ResearchEntity) => AuditValues }[] = [
  { entity: 'research', values: researchValues },
  { entity: 'profile', values: profileValues },
  { entity: 't0', values: t0Values },
  { entity: 'report', values: reportValues },
];

export const archiveValues = (r: ResearchEntity): AuditValues => ({
  archived_at: iso(r.archivedAt),
  archived_by: r.archivedBy,
});

/** A camera link, without the user name and password a link may carry (`rtsp://user:secret@…`). */
export function urlValues(url: string): AuditValues {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '';
      parsed.password = '';
      return { url: parsed.toString() };
    }
  } catch {
    // Not a URL the parser takes: kept as typed (the API accepts only http(s) links).
  }
  return { url };
}

/** A client's e-mail record by its address: its id is the client's access code, a secret. */
export const emailValues = (e: { email: string; lang: string; isSent: boolean }): AuditValues => ({
  email: e.email,
  lang: e.lang,
  is_sent: e.isSent,
});

export const observationValues = (o: ObservationEntity): AuditValues => ({
  time: o.time,
  kind: o.kind,
  note: o.note,
  visible_to_clients: o.visibleToClients,
});

export const exclusionValues = (e: ThermoExclusionEntity): AuditValues => ({
  thermo_id: e.thermoId,
  from_time: e.fromTime,
  reason: e.reason,
});

/** A drawing by its name, kind, size and sha256: never its bytes. */
export const drawingValues = (
  d: Pick<ResearchDrawingEntity, 'filename' | 'mime' | 'size' | 'sha256'>,
): AuditValues => ({
  name: d.filename,
  mime: d.mime,
  size: d.size,
  sha256: d.sha256,
});

const markerValues = (m: ThermoMarkerEntity): AuditValues => ({
  thermo_id: m.thermoId,
  name: m.name,
  type_name: m.typeName,
  color_hex: m.colorHex,
  item_x: m.itemX,
  item_y: m.itemY,
  item_size: m.itemSize,
  label_x: m.labelX,
  label_y: m.labelY,
  label_width: m.labelWidth,
  label_height: m.labelHeight,
  zone: m.zone,
});

/** The sizes and digests of a config's two files, as stored. */
export interface ThermoFileFacts {
  imageSize: number;
  configSize: number;
  configSha256: string;
}

/** A thermocouple config: its photo and file by name, size and sha256, and its markers as they are. */
export const thermoConfigValues = (
  c: ThermoConfigEntity,
  files: ThermoFileFacts,
  markers: readonly ThermoMarkerEntity[],
): AuditValues => ({
  image: {
    name: c.imageFilename,
    mime: c.imageMime,
    size: files.imageSize,
    sha256: c.imageSha256,
    width: c.imageWidth,
    height: c.imageHeight,
  },
  config_file: { name: c.configFilename, size: files.configSize, sha256: files.configSha256 },
  markers: markers.map(markerValues),
});

/** A user's account and rights: never the password or its hash. */
export const userValues = (u: UserEntity): AuditValues => ({
  email: u.email,
  full_name: u.fullName,
  is_active: u.isActive,
  is_superuser: u.isSuperuser,
});

/** The fields whose values differ, as they were and as they are; null when none does. */
export function changes(before: AuditValues, after: AuditValues): { before: AuditValues; after: AuditValues } | null {
  const was: AuditValues = {};
  const is: AuditValues = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    was[key] = before[key] ?? null;
    is[key] = after[key] ?? null;
  }
  return Object.keys(is).length ? { before: was, after: is } : null;
}

/** A furnace of the lab (docs/behaviour.md, "Furnaces"). */
export const furnaceValues = (f: FurnaceEntity): AuditValues => ({
  name: f.name,
  code: f.code,
  scan_period_s: f.scanPeriodS,
  standard: f.standard,
  heating_curve: f.heatingCurve,
  pressure_target_pa: f.pressureTargetPa,
  pressure_tolerance_pa: f.pressureTolerancePa,
  watch_emails: f.watchEmails,
  webhook_url: f.webhookUrl,
  // The secret itself never: only whether one is set.
  webhook_secret_set: f.webhookSecret !== null,
});
