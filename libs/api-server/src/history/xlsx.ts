import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ZipStream from 'zip-stream';
import type { CriteriaSnapshot, CriterionResult, TolerancePeriod } from '@furnace/contracts';
import { completedMinutes } from '@furnace/criteria';
import { type Catalogue, fill, type Language, texts } from '@furnace/text';
import {
  Elapsed,
  EXPORT_TIME_ZONE,
  type ExportCell,
  exportHeader,
  hms,
  metaRows,
  warsawWallClock,
} from './export-format';
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
 * in Warsaw local time, the header row frozen), the criteria and observations, the thermocouples; their
 * words in `lang` (the catalogue's `export` and `criteria` namespaces). A client that has gone (`ctx.signal`) stops it at the next page.
 */
export async function writeWorkbook(
  out: Writable,
  ctx: ExportContext,
  rows: AsyncIterable<ExportCell[][]>,
  criteria: () => CriteriaSnapshot,
  lang: Language,
): Promise<void> {
  const text = texts(lang);
  const broken = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, broken.signal]) : broken.signal;
  const zip = new ZipStream({ zlib: { level: DEFLATE_LEVEL, chunkSize: 64 * 1024 } });
  const sent = pipeline(zip, out, { signal });
  // The response failed: every wait below ends with its error.
  sent.catch((error: unknown) => broken.abort(error));
  const add = (source: Buffer | Readable, name: string) =>
    unless(
      new Promise<void>((resolve, reject) =>
        zip.entry(source, { name }, (error) => (error ? reject(error) : resolve())),
      ),
      signal,
    );
  const readings = new PassThrough({ highWaterMark: CHUNK });
  try {
    for (const part of workbookParts(Object.values(text.export.sheet), 'Furnace Live', new Date()))
      await add(Buffer.from(part.xml), part.name);

    const added = add(readings, sheetPath(0));
    added.catch(() => undefined); // awaited below; a failure meanwhile ends the waits through `signal`
    const header = exportHeader(ctx.layout, lang);
    const sheet = new SheetXml({
      widths: header.map((title, i) => (i === 3 ? 20 : Math.min(40, Math.max(10, title.length + 2)))),
      frozenHeader: true,
    });
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
    await add(criteriaSheet(ctx, snapshot, lang), sheetPath(1));
    await add(thermocouplesSheet(ctx, snapshot, text), sheetPath(2));
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

function criteriaSheet(ctx: ExportContext, snapshot: CriteriaSnapshot, lang: Language): Buffer {
  const {
    export: { criteria: c, observations: o },
    criteria: names,
  } = texts(lang);
  const sheet = new SheetXml({ widths: [34, 28, 30, 40, 14], frozenHeader: true });
  sheet.row([c.criterion, c.minutes, c.reachedAfter, c.remarks], true);
  const results = [
    [names.criterion.E, snapshot.criteria.E],
    [names.criterion.I, snapshot.criteria.I],
    [names.criterion.W, snapshot.criteria.W],
  ] as const;
  for (const [label, result] of results) sheet.row(criterionCells(label, result, c));
  sheet.row([]);
  sheet.row([
    c.classification,
    snapshot.classification === null ? c.noData : snapshot.classification || noClassification(snapshot.criteria.E, c),
  ]);
  for (const cells of metaRows(ctx.meta, lang)) sheet.row(cells);
  // d_e and the pressure now, then the verdict over the whole range: out of tolerance once is not conforming (EN 1363-1 §5.1.2, §5.2.2).
  const d = snapshot.deviation;
  sheet.row([c.deviation, d.d_e === null ? null : Math.round(d.d_e * 1000) / 1000, tolerance(d.ok, c)]);
  sheet.row([c.deviationVerdict, verdict(d.conforming, c)]);
  for (const p of d.periods)
    sheet.row(
      periodCells(
        c.deviationPeriod,
        p,
        fill(c.worstDeviation, { value: p.worst.toFixed(2), tolerance: round2(p.worst_tolerance) }),
        c,
      ),
    );
  const pressure = snapshot.pressure;
  if (pressure !== null) {
    const target =
      fill(c.pressureTarget, { target: round2(pressure.target) }) +
      (pressure.tolerance === null ? '' : fill(c.pressureTolerance, { tolerance: round2(pressure.tolerance) }));
    sheet.row([c.pressure, pressure.value, tolerance(pressure.ok, c), target]);
    sheet.row([c.pressureVerdict, verdict(pressure.conforming, c)]);
    for (const p of pressure.periods) {
      const offset = `${p.worst > 0 ? '+' : ''}${p.worst.toFixed(1)}`;
      sheet.row(
        periodCells(c.pressurePeriod, p, fill(c.worstPressure, { offset, tolerance: round2(p.worst_tolerance) }), c),
      );
    }
  }
  const channel = texts(lang).export.meta.channel;
  for (const failure of snapshot.failures) {
    const who =
      failure.thermo_id === null
        ? (failure.type_name ?? '')
        : `${fill(channel, { id: failure.thermo_id })}${failure.type_name ? ` (${failure.type_name})` : ''}`;
    sheet.row([
      fill(c.failure, { criterion: names.criterion[failure.criterion] }),
      completedMinutes(failure.interval_from ?? failure.time),
      new Elapsed(failure.time),
      who,
    ]);
  }
  sheet.row([]);
  sheet.row([o.kind, fill(o.dateTime, { zone: EXPORT_TIME_ZONE }), o.sinceIgnition, o.note, o.visible], true);
  for (const x of ctx.observations) {
    const at = ctx.ignitionAt ? warsawWallClock(new Date(ctx.ignitionAt.getTime() + x.time * 1000)) : null;
    sheet.row([
      observationName(x.kind, names.observation),
      at,
      new Elapsed(x.time),
      x.note ?? '',
      x.visibleToClients ? o.yes : o.no,
    ]);
  }
  return sheet.end();
}

type CriteriaWords = Catalogue['export']['criteria'];

/** An observation's kind as the catalogue names it; a kind it does not know, as stored. */
function observationName(kind: string, names: Catalogue['criteria']['observation']): string {
  return Object.hasOwn(names, kind) ? names[kind as keyof typeof names] : kind;
}

/** A criterion's row: completed minutes, when reached, and whether it was; nothing measured is never shown as held. */
function criterionCells(label: string, result: CriterionResult, c: CriteriaWords): ExportCell[] {
  // W without a radiometer: I's minutes, deemed met while I holds (EN 13501-2).
  if (result.deemed) return [label, result.minutes ?? result.held_minutes, null, c.deemed];
  if (!result.measured) return [label, null, null, c.notMeasured];
  return [
    label,
    result.minutes ?? result.held_minutes,
    result.time === null ? null : new Elapsed(result.time),
    result.reached ? c.reached : c.notReached,
  ];
}

/** No class: E under 15 min, or a time that reaches none of the element's periods (a wall's E from 20 min, DIN 4102-5's T 30). */
function noClassification(e: CriterionResult, c: CriteriaWords): string {
  const minutes = e.minutes ?? e.held_minutes;
  return minutes !== null && minutes >= 15 ? c.noClassPeriod : c.noClassification;
}

/** "12.42", "10", "2.5": the d_e tolerance falls linearly from 10 to 60 min (EN 1363-1 §5.1.2), between whole numbers. */
function round2(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function tolerance(ok: boolean | null, c: CriteriaWords): string {
  return ok === null ? '' : ok ? c.withinTolerance : c.outOfTolerance;
}

function verdict(conforming: boolean | null, c: CriteriaWords): string {
  return conforming === null ? c.notJudged : conforming ? c.conforming : c.nonConforming;
}

/** A period outside a tolerance: from, to (the last reading outside), the worst value and when, "ongoing" while still outside at the newest reading. */
function periodCells(label: string, p: TolerancePeriod, worst: string, c: CriteriaWords): ExportCell[] {
  return [label, new Elapsed(p.from), new Elapsed(p.to), `${worst} (${hms(p.worst_time)})`, p.open ? c.ongoing : ''];
}

function thermocouplesSheet(ctx: ExportContext, snapshot: CriteriaSnapshot, text: Catalogue): Buffer {
  const w = text.export.thermocouples;
  const sheet = new SheetXml({ widths: [8, 14, 22, 30, 44, 44], frozenHeader: true });
  sheet.row([w.channel, w.name, w.type, w.config, w.excluded, w.failed], true);
  const excluded = new Map<number, string[]>();
  for (const x of ctx.exclusions)
    excluded.set(x.thermoId, [
      ...(excluded.get(x.thermoId) ?? []),
      fill(w.exclusion, { time: hms(x.fromTime), reason: x.reason }),
    ]);
  const failed = new Map<number, string[]>();
  for (const f of ctx.meta.failed)
    failed.set(f.thermoId, [fill(w.outOfRange, { from: hms(f.firstTime), to: hms(f.lastTime), frames: f.frames })]);
  // An out-of-range channel is already listed from the stored flags; the other suspicions are added.
  for (const s of snapshot.suspects.filter((x) => x.reason !== 'fault')) {
    failed.set(s.thermo_id, [
      ...(failed.get(s.thermo_id) ?? []),
      fill(w.suspect, { suspect: text.criteria.suspect[s.reason], time: hms(s.time) }),
    ]);
  }
  for (const m of ctx.markers) {
    sheet.row([
      m.thermoId,
      m.name,
      m.type,
      m.config,
      excluded.get(m.thermoId)?.join('; ') ?? '',
      failed.get(m.thermoId)?.join('; ') ?? '',
    ]);
  }
  return sheet.end();
}
