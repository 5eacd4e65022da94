import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import sharp from 'sharp';
import type { ObservationKind } from '@furnace/contracts';
import type { ApiConfig } from '@furnace/config';
import type { ResearchEntity } from '@furnace/db';
import type { Principal } from '../auth/principal';
import { APP_CONFIG } from '../core/tokens';
import { CriteriaService } from '../criteria/criteria.service';
import { DrawingsService } from '../drawings/drawings.service';
import { HistoryQueryDto } from '../history/history.dto';
import { HistoryService } from '../history/history.service';
import { researchState } from '../research/research-state';
import { ResearchService } from '../research/research.service';
import { ThermoService } from '../thermo/thermo.service';
import type { ClassificationData } from './classification-pdf';
import type { IssuedStamp } from './report-layout';
import type { ReportData, ReportPhoto, TestReportFields } from './report-pdf';
import { AlarmsService } from '../alarms/alarms.service';
import { ReportRenderer } from './report-renderer';
import { type ReportLang, reportFilename } from './report-text';

/** Points of each chart series: the dashboard's overview resolution. */
const REPORT_POINTS = 1000;
/** Longest side of a photo in the PDF, px: ~270 dpi across an A4 page's width, a small file whatever was uploaded. */
const PHOTO_SIDE = 2000;

/**
 * The photo as a JPEG of at most PHOTO_SIDE px a side (alpha flattened on white); null when it cannot
 * be read, so that one bad photo leaves the rest of the report.
 */
async function reportPhoto(data: Buffer): Promise<Buffer | null> {
  try {
    return await sharp(data, { failOn: 'error' })
      .resize({ width: PHOTO_SIDE, height: PHOTO_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    return null;
  }
}

/** What the research's test report states (EN 1363-1 §12), as plain data for the worker. */
function testReportFields(r: ResearchEntity): TestReportFields {
  return {
    sponsor: r.sponsor,
    manufacturer: r.manufacturer,
    specimenDescription: r.specimenDescription,
    conditioning: r.conditioning,
    supportingConstruction: r.supportingConstruction,
    exposedSide: r.exposedSide,
    ambientTemperatureC: r.ambientTemperatureC,
    pressureHeightMm: r.pressureHeightMm,
    endReason: r.endReason,
    deviations: r.deviations,
    reportNumber: r.reportNumber,
    reportDate: r.reportDate,
  };
}

/**
 * The test report as a PDF. Every number comes from the services the dashboard reads: the criteria
 * (CriteriaService, the engine over the stored frames), the history (HistoryService, downsampled
 * series and category rollups) and the thermocouple configs (docs/behaviour.md §11).
 */
@Injectable()
export class ReportService {
  private readonly logger = new Logger(ReportService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
    private readonly research: ResearchService,
    private readonly criteria: CriteriaService,
    private readonly history: HistoryService,
    private readonly thermo: ThermoService,
    private readonly drawings: DrawingsService,
    private readonly renderer: ReportRenderer,
    private readonly alarms: AlarmsService,
  ) {}

  /**
   * The report's file name and its document, a stream to pipe to the response. 404 for an unknown research.
   * `signal` (the client went away) stops it between its steps — the reads, each photo, the drawing — with its reason.
   * The pages are laid out in a worker thread (ReportRenderer), off the event loop that serves the live
   * streams; the document streams the bytes it hands back.
   */
  async report(
    researchId: string,
    lang: ReportLang,
    principal: Principal,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ filename: { ascii: string; utf8: string }; document: NodeJS.ReadableStream }> {
    return asDocument(await this.reportPdf(researchId, lang, principal, options));
  }

  /** The report's file name and bytes; `issued`: the stamp of a document issued with an approval, on every page. */
  async reportPdf(
    researchId: string,
    lang: ReportLang,
    principal: Principal,
    { now = new Date(), signal, issued = null }: { now?: Date; signal?: AbortSignal; issued?: IssuedStamp | null } = {},
  ): Promise<{ filename: { ascii: string; utf8: string }; pdf: Buffer }> {
    const research = await this.research.get(researchId);
    signal?.throwIfAborted();
    const [criteria, history, observations, exclusions, configs, drawings, alarms] = await Promise.all([
      this.criteria.criteria(researchId, principal),
      this.history.history(researchId, Object.assign(new HistoryQueryDto(), { points: REPORT_POINTS })),
      this.criteria.observations(researchId, principal),
      this.criteria.exclusions(researchId),
      this.thermo.list(researchId),
      this.drawings.list(researchId),
      this.alarms.list(researchId),
    ]);
    const names = new Map<number, string>();
    const photos: ReportPhoto[] = [];
    for (const config of configs) {
      signal?.throwIfAborted();
      const [image, markers] = await Promise.all([
        this.thermo.image(config.id),
        this.thermo.markersOfConfig(config.id),
      ]);
      for (const m of markers) if (!names.has(m.thermoId)) names.set(m.thermoId, m.name);
      const jpeg = await reportPhoto(image.data);
      if (!jpeg) {
        this.logger.warn(
          `report of research ${researchId}: the photo of thermocouple config ${config.id} could not be read; left out`,
        );
        continue;
      }
      photos.push({
        image: jpeg,
        width: config.imageWidth,
        height: config.imageHeight,
        markers: markers.map((m) => ({ name: m.name, x: m.itemX, y: m.itemY, size: m.itemSize, color: m.colorHex })),
      });
    }
    const data: ReportData = {
      lang,
      lab: this.config.brandName,
      // The fields the report reads, as plain data: the worker receives a structured clone.
      research: {
        name: research.name,
        startAt: research.startAt,
        endAt: research.endAt,
        standard: research.standard,
        insulation: research.insulation,
        heatingCurve: research.heatingCurve,
        plannedDurationMin: research.plannedDurationMin,
        pressureTargetPa: research.pressureTargetPa,
        pressureTolerancePa: research.pressureTolerancePa,
        isRadiance: research.isRadiance,
        isPressure: research.isPressure,
        state: researchState(research, now.getTime()),
        approvedRevision: research.approvedRevision,
        ...testReportFields(research),
      },
      criteria,
      history,
      observations: observations.map((o) => ({ time: o.time, kind: o.kind as ObservationKind, note: o.note })),
      exclusions: exclusions.map((e) => ({ thermo_id: e.thermoId, from_time: e.fromTime, reason: e.reason })),
      alarms: alarms
        .map((a) => ({
          raisedAt: new Date(a.raised_at),
          kind: a.kind,
          subject: a.subject,
          acknowledgedBy: a.acknowledged_by,
        }))
        .reverse(),
      names,
      photos,
      drawings: drawings.map((d) => ({ filename: d.filename, mime: d.mime, size: d.size })),
      generatedAt: now,
      issued,
    };
    signal?.throwIfAborted();
    // pdfkit, fontkit and ECharts (~35 MB) are loaded by the worker, on the first report: an API
    // instance which never makes a report does not load them (docs/performance.md, "Exports").
    const { pdf } = await this.renderer.render(data, signal);
    return { filename: reportFilename(researchId, research.name, lang), pdf };
  }

  /**
   * The classification report (docs/behaviour.md §11.4): its file name and document. Every number is the
   * kept criteria's (CriteriaService.criteria, as GET …/criteria answers staff); the research gives the
   * element, its standard and the test report it rests on. 404 for an unknown research; `signal` as for
   * the report.
   */
  async classification(
    researchId: string,
    lang: ReportLang,
    principal: Principal,
    options: { now?: Date; signal?: AbortSignal } = {},
  ): Promise<{ filename: { ascii: string; utf8: string }; document: NodeJS.ReadableStream }> {
    return asDocument(await this.classificationPdf(researchId, lang, principal, options));
  }

  /** The classification report's file name and bytes; `issued` as for the report. */
  async classificationPdf(
    researchId: string,
    lang: ReportLang,
    principal: Principal,
    { now = new Date(), signal, issued = null }: { now?: Date; signal?: AbortSignal; issued?: IssuedStamp | null } = {},
  ): Promise<{ filename: { ascii: string; utf8: string }; pdf: Buffer }> {
    const research = await this.research.get(researchId);
    signal?.throwIfAborted();
    const criteria = await this.criteria.criteria(researchId, principal);
    signal?.throwIfAborted();
    const data: ClassificationData = {
      lang,
      lab: this.config.brandName,
      research: {
        name: research.name,
        standard: research.standard,
        insulation: research.insulation,
        heatingCurve: research.heatingCurve,
        sponsor: research.sponsor,
        manufacturer: research.manufacturer,
        specimenDescription: research.specimenDescription,
        reportNumber: research.reportNumber,
        reportDate: research.reportDate,
      },
      criteria,
      generatedAt: now,
      issued,
    };
    const { pdf } = await this.renderer.renderClassification(data, signal);
    return { filename: reportFilename(researchId, research.name, lang, 'classification'), pdf };
  }
}

/** A document's bytes as the stream the controller pipes to the response. */
function asDocument({ filename, pdf }: { filename: { ascii: string; utf8: string }; pdf: Buffer }): {
  filename: { ascii: string; utf8: string };
  document: NodeJS.ReadableStream;
} {
  return { filename, document: Readable.from([pdf], { objectMode: false }) };
}
