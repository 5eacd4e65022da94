import { createHash } from 'node:crypto';
import { Injectable, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import type { ResearchDrawingEntity } from '@furnace/db';
import { drawingValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { validationException } from '../core/errors';
import { safeFileName } from '../core/file-name';
import { ResearchService } from '../research/research.service';
import type { UploadedFileLike } from '../thermo/thermo.service';
import { checkDrawing, MAX_DRAWING_BYTES } from './drawing-check';
import { DrawingsRepository } from './drawings.repository';

const notFound = () => new NotFoundException('Drawing not found');

/** The drawings of a research's specimen, attached to its test report (docs/behaviour.md §11). */
@Injectable()
export class DrawingsService {
  constructor(
    private readonly repo: DrawingsRepository,
    private readonly research: ResearchService,
    private readonly audit: AuditService,
  ) {}

  async list(researchId: string): Promise<ResearchDrawingEntity[]> {
    await this.research.get(researchId);
    return this.repo.list(researchId);
  }

  /**
   * Stores a drawing once its bytes are what its name says (checkDrawing): a 422 naming the file
   * otherwise, 413 over MAX_DRAWING_BYTES, and nothing stored. `by`: who uploads it.
   */
  async create(researchId: string, file: UploadedFileLike | undefined, by: string): Promise<ResearchDrawingEntity> {
    if (!file) throw validationException([{ loc: ['body', 'file'], msg: 'file is required', type: 'missing' }]);
    const filename = safeFileName(file.originalname, 'drawing');
    if (file.size > MAX_DRAWING_BYTES)
      throw new PayloadTooLargeException(
        `"${filename}" is larger than ${MAX_DRAWING_BYTES / 1024 / 1024} MiB, the limit of a drawing`,
      );
    await this.research.get(researchId);
    const checked = await checkDrawing(filename, file.buffer);
    if (!checked.ok) throw validationException([{ loc: ['body', 'file'], msg: checked.message, type: 'drawing' }]);
    const drawing = {
      researchId,
      filename,
      mime: checked.mime,
      size: checked.data.length,
      sha256: createHash('sha256').update(checked.data).digest('hex'),
      data: checked.data,
      createdBy: by,
    };
    return this.audit.transaction(async (em) => {
      const saved = await this.repo.create(drawing, em);
      await this.audit.record(
        { actor: by, researchId, entity: 'drawing', entityId: saved.id, action: 'create', after: drawingValues(saved) },
        em,
      );
      return saved;
    });
  }

  async file(researchId: string, id: string): Promise<{ data: Buffer; mime: string; filename: string }> {
    const file = await this.repo.file(researchId, id);
    if (!file) throw notFound();
    return file;
  }

  async delete(researchId: string, id: string, by: string): Promise<void> {
    await this.audit.transaction(async (em) => {
      const deleted = await this.repo.delete(researchId, id, em);
      if (!deleted) throw notFound();
      await this.audit.record(
        { actor: by, researchId, entity: 'drawing', entityId: id, action: 'delete', before: drawingValues(deleted) },
        em,
      );
    });
  }
}
