import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ZipStream from 'zip-stream';
import {
  CRITERION_LABELS_PL,
  type CriteriaSnapshot,
  type CriterionResult,
  OBSERVATION_LABELS_PL,
  type ObservationKind,
  SUSPECT_LABELS_PL,
  type TolerancePeriod,
} from '@furnace/contracts';
import { completedMinutes } from '@furnace/criteria';
import { Elapsed, EXPORT_TIME_ZONE, type ExportCell, exportHeader, hms, metaRows, SHEET, warsawWallClock } from './export-format';
import type { ExportContext } from './export.service';
import { SheetXml, sheetPath, workbookParts } from './xlsx-sheet';

/**
 * zlib's fastest level: the readings' XML of a 24-hour test deflates to 12 % of its size at level 1,
 * to 9 % at the default 6, which is about 9 times slower and would hold the export up
 * (docs/performance.md, "Exports").
 */
const DEFLATE_LEVEL = 1;

/** Bytes of the readings' XML handed to the compressor at a time, and at most queued before it. */
const CHUNK = 256 * 1024;

/**
 * The history as an Excel workbook, written as the rows come (xlsx-sheet.ts writes the SpreadsheetML,
 * zip-stream packs it, deflating on zlib's threads): nothing of the readings is kept once a page is
 * handed to the compressor, and the next page is made only when the compressor and the client have
 * taken the previous ones. Sheets: the readings (the CSV's columns, real numbers, dates as date cells
 * in Warsaw local time, the header row frozen), the criteria and observations, the thermocouples.
 * A client that has gone (`ctx.signal`) stops it at the next page.
 */
export async function writeWorkbook(out: Writable, ctx: ExportContext, rows: AsyncIterable<ExportCell[][]>, criteria: () => CriteriaSnapshot): Promise<void> {
  const broken = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, broken.signal]) : broken.signal;
  const zip = new ZipStream({ zlib: { level: DEFLATE_LEVEL, chunkSize: 64 * 1024 } });
  const sent = pipeline(zip, out, { signal });
  // The response failed: every wait below ends with its error.
  sent.catch((error: unknown) => broken.abort(error));
  const add = (source: Buffer | Readable, name: string) =>
    unless(new Promise<void>((resolve, reject) => zip.entry(source, { name }, (error) => (error ? reject(error) : resolve()))), signal);
  const readings = new PassThrough({ highWaterMark: CHUNK });
  try {
    for (const part of workbookParts(Object.values(SHEET), 'Furnace Live', new Date())) await add(Buffer.from(part.xml), part.name);

    const added = add(readings, sheetPath(0));
    added.catch(() => undefined); // awaited below; a failure meanwhile ends the waits through `signal`
    const header = exportHeader(ctx.layout);
    const sheet = new SheetXml({ widths: header.map((title, i) => (i === 3 ? 20 : Math.min(40, Math.max(10, title.length + 2)))), frozenHeader: true });
    sheet.row(header, true);
    for await (const page of rows) {
      for (const cells of page) sheet.row(cells);
      if (sheet.pending >= CHUNK && !readings.write(sheet.take())) await once(readings, 'drain', { signal });
      // A page read ahead is there at once: let the live viewers' I/O in between pages all the same.
      else await nextTurn();
      signal.throwIfAborted();
    }
    readings.end(sheet.end());
    await added;

    const snapshot = criteria();
    await add(criteriaSheet(ctx, snapshot), sheetPath(1));
    await add(thermocouplesSheet(ctx, snapshot), sheetPath(2));
    zip.finalize();
    await sent;
  } catch (error) {
    readings.destroy();
    zip.destroy();
    throw signal.aborted ? signal.reason : error;
  }
}

/** `promise`, or the reason of `signal` as soon as it fires (a zip entry whose stream has failed never calls back). */
function unless<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function criteriaSheet(ctx: ExportContext, snapshot: CriteriaSnapshot): Buffer {
  const sheet = new SheetXml({ widths: [34, 28, 30, 40, 14], frozenHeader: true });
  sheet.row(['Kryterium', 'Czas [min] (ukończone minuty)', 'Osiągnięte po', 'Uwagi'], true);
  const results = [
    [CRITERION_LABELS_PL.E, snapshot.criteria.E],
    [CRITERION_LABELS_PL.I, snapshot.criteria.I],
    [CRITERION_LABELS_PL.W, snapshot.criteria.W],
  ] as const;
  for (const [label, result] of results) sheet.row(criterionCells(label, result));
  sheet.row([]);
  sheet.row(['Klasyfikacja', snapshot.classification === null ? 'brak danych' : snapshot.classification || noClassification(snapshot.criteria.E)]);
  for (const cells of metaRows(ctx.meta)) sheet.row(cells);
  // d_e and the pressure now, then the verdict over the whole range: out of tolerance once is not conforming (EN 1363-1 §5.1.2, §5.2.2).
  const d = snapshot.deviation;
  sheet.row(['d_e [%]', d.d_e === null ? null : Math.round(d.d_e * 1000) / 1000, tolerance(d.ok)]);
  sheet.row(['Zgodność pieca (d_e)', verdict(d.conforming)]);
  for (const p of d.periods) sheet.row(periodCells('d_e poza tolerancją (od, do)', p, `najgorsze d_e ${p.worst.toFixed(2)} % przy tolerancji ±${round2(p.worst_tolerance)} %`));
  const pressure = snapshot.pressure;
  if (pressure !== null) {
    sheet.row(['Ciśnienie w piecu [Pa]', pressure.value, tolerance(pressure.ok), `cel ${round2(pressure.target)} Pa${pressure.tolerance === null ? '' : ` ±${round2(pressure.tolerance)} Pa`}`]);
    sheet.row(['Zgodność ciśnienia', verdict(pressure.conforming)]);
    for (const p of pressure.periods) {
      const offset = `${p.worst > 0 ? '+' : ''}${p.worst.toFixed(1)}`;
      sheet.row(periodCells('Ciśnienie poza tolerancją (od, do)', p, `najdalej od celu ${offset} Pa przy tolerancji ±${round2(p.worst_tolerance)} Pa`));
    }
  }
  for (const failure of snapshot.failures) {
    const who = failure.thermo_id === null ? (failure.type_name ?? '') : `kanał ${failure.thermo_id}${failure.type_name ? ` (${failure.type_name})` : ''}`;
    sheet.row([`Przekroczenie: ${CRITERION_LABELS_PL[failure.criterion]}`, completedMinutes(failure.interval_from ?? failure.time), new Elapsed(failure.time), who]);
  }
  sheet.row([]);
  sheet.row(['Obserwacja', `Data i godzina (${EXPORT_TIME_ZONE})`, 'Czas od zapłonu', 'Notatka', 'Widoczna dla klientów'], true);
  for (const o of ctx.observations) {
    const at = ctx.ignitionAt ? warsawWallClock(new Date(ctx.ignitionAt.getTime() + o.time * 1000)) : null;
    sheet.row([OBSERVATION_LABELS_PL[o.kind as ObservationKind] ?? o.kind, at, new Elapsed(o.time), o.note ?? '', o.visibleToClients ? 'tak' : 'nie']);
  }
  return sheet.end();
}

/** A criterion's row: completed minutes, when reached, and whether it was; nothing measured is never shown as held. */
function criterionCells(label: string, result: CriterionResult): ExportCell[] {
  // W without a radiometer: I's minutes, deemed met while I holds (EN 13501-2).
  if (result.deemed) return [label, result.minutes ?? result.held_minutes, null, 'nie mierzono; uznane za spełnione, dopóki spełnione jest I'];
  if (!result.measured) return [label, null, null, 'nie mierzono'];
  return [label, result.minutes ?? result.held_minutes, result.time === null ? null : new Elapsed(result.time), result.reached ? 'osiągnięte' : 'nieosiągnięte'];
}

/** No class: E under 15 min, or a time that reaches none of the element's periods (a wall's E from 20 min, DIN 4102-5's T 30). */
function noClassification(e: CriterionResult): string {
  const minutes = e.minutes ?? e.held_minutes;
  return minutes !== null && minutes >= 15 ? 'brak (poniżej najkrótszego okresu klasyfikacji)' : 'brak (E poniżej 15 min)';
}

/** "12.42", "10", "2.5": the d_e tolerance falls linearly from 10 to 60 min (EN 1363-1 §5.1.2), between whole numbers. */
function round2(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function tolerance(ok: boolean | null): string {
  return ok === null ? '' : ok ? 'w tolerancji' : 'poza tolerancją';
}

function verdict(conforming: boolean | null): string {
  return conforming === null ? 'brak oceny' : conforming ? 'zgodne' : 'niezgodne';
}

/** A period outside a tolerance: from, to (the last reading outside), the worst value and when, "trwa" while still outside at the newest reading. */
function periodCells(label: string, p: TolerancePeriod, worst: string): ExportCell[] {
  return [label, new Elapsed(p.from), new Elapsed(p.to), `${worst} (${hms(p.worst_time)})`, p.open ? 'trwa' : ''];
}

function thermocouplesSheet(ctx: ExportContext, snapshot: CriteriaSnapshot): Buffer {
  const sheet = new SheetXml({ widths: [8, 14, 22, 30, 44, 44], frozenHeader: true });
  sheet.row(['Kanał', 'Nazwa', 'Typ', 'Konfiguracja', 'Wyłączona', 'Uszkodzona / podejrzana'], true);
  const excluded = new Map<number, string[]>();
  for (const x of ctx.exclusions) excluded.set(x.thermoId, [...(excluded.get(x.thermoId) ?? []), `od ${hms(x.fromTime)}: ${x.reason}`]);
  const failed = new Map<number, string[]>();
  for (const f of ctx.meta.failed) failed.set(f.thermoId, [`poza zakresem od ${hms(f.firstTime)} do ${hms(f.lastTime)} (odczyty: ${f.frames})`]);
  // An out-of-range channel is already listed from the stored flags; the other suspicions are added.
  for (const s of snapshot.suspects.filter((x) => x.reason !== 'fault')) failed.set(s.thermo_id, [...(failed.get(s.thermo_id) ?? []), `${SUSPECT_LABELS_PL[s.reason]} od ${hms(s.time)}`]);
  for (const m of ctx.markers) {
    sheet.row([m.thermoId, m.name, m.type, m.config, excluded.get(m.thermoId)?.join('; ') ?? '', failed.get(m.thermoId)?.join('; ') ?? '']);
  }
  return sheet.end();
}
