import { createHash } from 'node:crypto';
import { Injectable, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { formatThermoConfigError, parseThermoConfig, type ThermoMarker } from '@furnace/contracts';
import type { ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';
import { type AuditValues, thermoConfigValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { validationException, type ValidationDetail } from '../core/errors';
import { safeFileName } from '../core/file-name';
import { SharedAnswers } from '../core/shared-answers';
import { ResearchEvents } from '../research/research-events';
import { ResearchService } from '../research/research.service';
import { checkImage, MAX_IMAGE_BYTES, reencodeImage } from './image-check';
import { ThermoMarkersRepository } from './thermo-markers.repository';
import { ThermoRepository } from './thermo.repository';

export const MAX_CONFIG_BYTES = 512 * 1024;

export interface UploadedFileLike {
  originalname: string;
  buffer: Buffer;
  size: number;
}

const missing = (field: string): ValidationDetail => ({
  loc: ['body', field],
  msg: `${field} is required`,
  type: 'missing',
});

const configTooLarge = () => new PayloadTooLargeException(`config_file is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);

/**
 * The markers of a config file placed on a photo of this size, or a 422 listing every error with its
 * line and field. The one check of a config file, for an upload and for the editor's save alike.
 */
function parseConfigFile(config: UploadedFileLike, imageWidth: number, imageHeight: number): ThermoMarker[] {
  const parsed = parseThermoConfig(config.buffer, { imageWidth, imageHeight });
  if (parsed.ok) return parsed.markers;
  throw validationException(
    parsed.errors.map((e) => ({
      loc: ['body', 'config_file', ...(e.line ? [e.line] : []), ...(e.field ? [e.field] : [])],
      msg: formatThermoConfigError(e),
      type: 'thermo_config',
    })),
  );
}

/** Thermocouple configs: a photo of the specimen and the config file placing the thermocouples on it. */
/** How long a photo read is shared (ms), and how many are kept at most (the oldest go first). */
const PHOTO_SHARED_MS = 30_000;
const PHOTOS_KEPT = 16;

@Injectable()
export class ThermoService {
  /**
   * Photos read lately, by config id (a config's photo never changes: a new photo is a new config). A
   * crowd opening one live view — its viewers reconnecting after a restart — reads it from the database
   * once, not once per viewer (docs/performance.md, "Clients joining a long test"). Who may read it is
   * still checked per request, before this (the route's guard finds the config).
   */
  private readonly photos = new SharedAnswers<{ data: Buffer; mime: string; sha256: string }>(
    PHOTO_SHARED_MS,
    PHOTOS_KEPT,
  );

  constructor(
    private readonly repo: ThermoRepository,
    private readonly markers: ThermoMarkersRepository,
    private readonly research: ResearchService,
    private readonly events: ResearchEvents,
    private readonly audit: AuditService,
  ) {}

  async list(researchId: string): Promise<ThermoConfigEntity[]> {
    await this.research.get(researchId);
    return this.repo.list(researchId);
  }

  async get(id: string): Promise<ThermoConfigEntity> {
    const config = await this.repo.findById(id);
    if (!config) throw new NotFoundException('Thermocouple config not found');
    return config;
  }

  /**
   * Checks the photo by its bytes and parses the config against the photo's size. Every problem is
   * reported at once (422, each with its line and field); nothing is stored unless all is valid.
   */
  async create(
    researchId: string,
    image: UploadedFileLike | undefined,
    config: UploadedFileLike | undefined,
    by: string,
  ): Promise<ThermoConfigEntity> {
    const absent = [...(image ? [] : [missing('image_file')]), ...(config ? [] : [missing('config_file')])];
    if (absent.length || !image || !config) throw validationException(absent);
    if (image.size > MAX_IMAGE_BYTES)
      throw new PayloadTooLargeException(`image_file is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`);
    if (config.size > MAX_CONFIG_BYTES) throw configTooLarge();
    await this.research.get(researchId);

    const checked = checkImage(image.buffer);
    if (!checked.ok) throw validationException([{ loc: ['body', 'image_file'], msg: checked.message, type: 'image' }]);
    // Only the re-encoded pixels are kept (no metadata, nothing appended): see reencodeImage.
    const img = await reencodeImage(image.buffer, checked.mime);
    if (!img.ok) throw validationException([{ loc: ['body', 'image_file'], msg: img.message, type: 'image' }]);
    const markers = parseConfigFile(config, img.width, img.height);
    const fields = {
      researchId,
      imageFilename: safeFileName(image.originalname, img.mime === 'image/png' ? 'photo.png' : 'photo.jpg'),
      imageMime: img.mime,
      imageWidth: img.width,
      imageHeight: img.height,
      imageSha256: createHash('sha256').update(img.data).digest('hex'),
      imageData: img.data,
      configFilename: safeFileName(config.originalname, 'config.txt'),
      configData: config.buffer,
    };
    const saved = await this.audit.transaction(async (em) => {
      const row = await this.repo.create(fields, markers, em);
      await this.audit.record(
        {
          actor: by,
          researchId,
          entity: 'thermo_config',
          entityId: row.id,
          action: 'create',
          after: await this.values(row, em),
        },
        em,
      );
      return row;
    });
    await this.events.changed(researchId, 'THERMOCOUPLE');
    return saved;
  }

  /** What the audit trail keeps of a config as it is stored in `em`'s transaction: files by name, size and sha256, and the markers. */
  private async values(config: ThermoConfigEntity, em: EntityManager): Promise<AuditValues> {
    const facts = await this.repo.fileFacts(config.id, em);
    return thermoConfigValues(
      config,
      facts ?? { imageSize: 0, configSize: 0, configSha256: '' },
      await this.repo.markersOfConfig(config.id, em),
    );
  }

  /**
   * Replaces a config's file and markers with a new config file (what the editor saves): the same
   * parser and checks as an upload, against the stored photo's size; every error at once (422, by
   * line and field) and nothing written, or everything in one transaction. Live viewers refetch.
   */
  async replaceConfig(id: string, config: UploadedFileLike | undefined, by: string): Promise<ThermoConfigEntity> {
    if (!config) throw validationException([missing('config_file')]);
    if (config.size > MAX_CONFIG_BYTES) throw configTooLarge();
    const existing = await this.get(id);
    const markers = parseConfigFile(config, existing.imageWidth, existing.imageHeight);
    const saved = await this.audit.transaction(async (em) => {
      const current = await this.repo.findForUpdate(id, em);
      if (!current) return null;
      const before = await this.values(current, em);
      const row = await this.markers.replace(
        id,
        { filename: safeFileName(config.originalname, 'config.txt'), data: config.buffer },
        markers,
        em,
      );
      if (!row) return null;
      await this.audit.record(
        {
          actor: by,
          researchId: row.researchId,
          entity: 'thermo_config',
          entityId: id,
          action: 'update',
          before,
          after: await this.values(row, em),
        },
        em,
      );
      return row;
    });
    if (!saved) throw new NotFoundException('Thermocouple config not found');
    await this.events.changed(existing.researchId, 'THERMOCOUPLE');
    return saved;
  }

  async delete(id: string, by: string): Promise<void> {
    const config = await this.get(id);
    await this.audit.transaction(async (em) => {
      const current = await this.repo.findForUpdate(id, em);
      if (!current) throw new NotFoundException('Thermocouple config not found');
      const before = await this.values(current, em);
      await this.repo.delete(id, em);
      await this.audit.record(
        { actor: by, researchId: current.researchId, entity: 'thermo_config', entityId: id, action: 'delete', before },
        em,
      );
    });
    await this.events.changed(config.researchId, 'THERMOCOUPLE');
  }

  image(id: string): Promise<{ data: Buffer; mime: string; sha256: string }> {
    return this.photos.get(id, () =>
      this.repo.image(id).then((found) => {
        if (!found) throw new NotFoundException('Thermocouple config not found');
        return found;
      }),
    );
  }

  async configFile(id: string) {
    const file = await this.repo.configFile(id);
    if (!file) throw new NotFoundException('Thermocouple config not found');
    return file;
  }

  async markersOfConfig(configId: string): Promise<ThermoMarkerEntity[]> {
    await this.get(configId);
    return this.repo.markersOfConfig(configId);
  }

  async markersOfResearch(researchId: string): Promise<ThermoMarkerEntity[]> {
    await this.research.get(researchId);
    return this.repo.markersOfResearch(researchId);
  }
}
