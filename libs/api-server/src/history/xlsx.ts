import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { completedMinutes, CRITERION_LABELS_PL, type CriteriaSnapshot, OBSERVATION_LABELS_PL, type ObservationKind, SUSPECT_LABELS_PL } from '@furnace/contracts';
import { Elapsed, EXPORT_TIME_ZONE, type ExportCell, exportHeader, hms, metaRows, SHEET, warsawWallClock } from './export-format';
import type { ExportContext } from './export.service';

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const ELAPSED_FORMAT = '[hh]:mm:ss';

/**
 * The history as an Excel workbook, written as the rows come (exceljs's streaming writer, no shared
 * strings: nothing of the readings is kept once a row is committed). Sheets: the readings (the CSV's
 * columns, real numbers, dates as date cells in Warsaw local time, the header row frozen), the criteria
 * and observations, the thermocouples.
 */
export async function writeWorkbook(out: Writable, ctx: ExportContext, rows: AsyncIterable<ExportCell[][]>, criteria: () => CriteriaSnapshot): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  workbook.creator = 'Furnace Live';

  const readings = workbook.addWorksheet(SHEET.readings, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  const header = exportHeader(ctx.layout);
  readings.columns = header.map((title, i) => ({ header: title, width: i === 3 ? 20 : Math.min(40, Math.max(10, title.length + 2)) }));
  readings.getRow(1).font = { bold: true };
  for await (const page of rows) {
    for (const cells of page) addRow(readings, cells);
    await drained(readings, ctx.signal);
  }
  readings.commit();

  const snapshot = criteria();
  const sheet = workbook.addWorksheet(SHEET.criteria, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  sheet.columns = [{ width: 34 }, { width: 28 }, { width: 30 }, { width: 40 }, { width: 14 }];
  addRow(sheet, ['Kryterium', 'Czas [min] (ukończone minuty)', 'Osiągnięte po', 'Uwagi'], true);
  const results = [
    [CRITERION_LABELS_PL.E, snapshot.criteria.E],
    [CRITERION_LABELS_PL.I, snapshot.criteria.I],
    [CRITERION_LABELS_PL.W, snapshot.criteria.W],
  ] as const;
  for (const [label, result] of results) {
    addRow(sheet, [label, result.minutes ?? result.held_minutes, result.time === null ? null : new Elapsed(result.time), result.reached ? 'osiągnięte' : 'nieosiągnięte']);
  }
  addRow(sheet, []);
  addRow(sheet, ['Klasyfikacja', snapshot.classification === null ? 'brak danych' : snapshot.classification || 'brak (E poniżej 15 min)']);
  for (const cells of metaRows(ctx.meta)) addRow(sheet, cells);
  addRow(sheet, ['d_e [%]', snapshot.deviation.d_e === null ? null : Math.round(snapshot.deviation.d_e * 1000) / 1000, snapshot.deviation.ok === null ? '' : snapshot.deviation.ok ? 'w tolerancji' : 'poza tolerancją']);
  for (const failure of snapshot.failures) {
    const who = failure.thermo_id === null ? (failure.type_name ?? '') : `kanał ${failure.thermo_id}${failure.type_name ? ` (${failure.type_name})` : ''}`;
    addRow(sheet, [`Przekroczenie: ${CRITERION_LABELS_PL[failure.criterion]}`, completedMinutes(failure.interval_from ?? failure.time), new Elapsed(failure.time), who]);
  }
  addRow(sheet, []);
  addRow(sheet, ['Obserwacja', `Data i godzina (${EXPORT_TIME_ZONE})`, 'Czas od zapłonu', 'Notatka', 'Widoczna dla klientów'], true);
  for (const o of ctx.observations) {
    const at = ctx.ignitionAt ? warsawWallClock(new Date(ctx.ignitionAt.getTime() + o.time * 1000)) : null;
    addRow(sheet, [OBSERVATION_LABELS_PL[o.kind as ObservationKind] ?? o.kind, at, new Elapsed(o.time), o.note ?? '', o.visibleToClients ? 'tak' : 'nie']);
  }
  sheet.commit();

  const thermo = workbook.addWorksheet(SHEET.thermocouples, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  thermo.columns = [{ width: 8 }, { width: 14 }, { width: 22 }, { width: 30 }, { width: 44 }, { width: 44 }];
  addRow(thermo, ['Kanał', 'Nazwa', 'Typ', 'Konfiguracja', 'Wyłączona', 'Uszkodzona / podejrzana'], true);
  const excluded = new Map<number, string[]>();
  for (const x of ctx.exclusions) excluded.set(x.thermoId, [...(excluded.get(x.thermoId) ?? []), `od ${hms(x.fromTime)}: ${x.reason}`]);
  const failed = new Map<number, string[]>();
  for (const f of ctx.meta.failed) failed.set(f.thermoId, [`poza zakresem od ${hms(f.firstTime)} do ${hms(f.lastTime)} (odczyty: ${f.frames})`]);
  // An out-of-range channel is already listed from the stored flags; the other suspicions are added.
  for (const s of snapshot.suspects.filter((x) => x.reason !== 'fault')) failed.set(s.thermo_id, [...(failed.get(s.thermo_id) ?? []), `${SUSPECT_LABELS_PL[s.reason]} od ${hms(s.time)}`]);
  for (const m of ctx.markers) {
    addRow(thermo, [m.thermoId, m.name, m.type, m.config, excluded.get(m.thermoId)?.join('; ') ?? '', failed.get(m.thermoId)?.join('; ') ?? '']);
  }
  thermo.commit();
  await workbook.commit();
}


/** Bytes of a sheet's XML that may wait for the zip's compressor before the next rows are made. */
const QUEUED_AT_MOST = 256 * 1024;

/**
 * exceljs hands a sheet's XML to the zip's compressor without waiting for it (its stream buffer
 * ignores backpressure), so rows made faster than they are compressed and sent would pile up in
 * memory: wait until the compressor (the buffer's pipe destination) has taken them. A client that
 * has gone takes nothing more: `signal` ends the wait (with its reason) instead of leaving it hanging.
 */
async function drained(sheet: ExcelJS.Worksheet, signal?: AbortSignal): Promise<void> {
  const target = (sheet as unknown as { stream?: { pipes?: QueuedWritable[] } }).stream?.pipes?.[0];
  // The compressor's input is an older readable-stream PassThrough: no writableLength, the same count in its state.
  const queued = () => target?.writableLength ?? target?._writableState?.length ?? 0;
  while (target !== undefined && !target.destroyed && queued() > QUEUED_AT_MOST) await once(target, 'drain', { signal });
  signal?.throwIfAborted();
}

type QueuedWritable = Writable & { _writableState?: { length: number } };

function addRow(sheet: ExcelJS.Worksheet, cells: readonly ExportCell[], bold = false): void {
  const row = sheet.addRow([]);
  if (bold) row.font = { bold: true };
  cells.forEach((value, i) => {
    if (value === null || value === '') return;
    const cell = row.getCell(i + 1);
    if (value instanceof Elapsed) {
      // A duration cell; before ignition, text (a negative time shows as #### in Excel).
      if (value.seconds < 0) cell.value = hms(value.seconds);
      else {
        cell.value = Math.floor(value.seconds) / 86_400;
        cell.numFmt = ELAPSED_FORMAT;
      }
    } else {
      cell.value = value;
      if (value instanceof Date) cell.numFmt = DATE_FORMAT;
    }
  });
  row.commit();
}
