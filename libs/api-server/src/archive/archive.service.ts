import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { AuditService } from '../audit/audit.service';
import { checkArchive, restoreArchive } from './archive-import';
import { ArchiveRepository } from './archive.repository';
import { writeArchive } from './archive-writer';

/** The archive of a test's whole record (docs/behaviour.md, "The archive"): its export and its import. */
@Injectable()
export class ArchiveService {
  constructor(
    private readonly repo: ArchiveRepository,
    private readonly audit: AuditService,
  ) {}

  /** The research's name for the file's; 404 before anything is sent. */
  async nameOf(researchId: string): Promise<string> {
    const name = await this.repo.nameOf(researchId);
    if (name === null) throw new NotFoundException('Research not found');
    return name;
  }

  write(out: Writable, researchId: string, signal: AbortSignal): Promise<void> {
    return this.repo.snapshot(researchId, (snapshot) => writeArchive(out, researchId, snapshot, signal));
  }

  /** Restores the archive as a new, archived test; its id. Refused (422, naming what) unless the archive checks out. */
  async import(zip: Buffer | undefined, importer: string): Promise<{ id: string; source: string; dataSha256: string; readings: number }> {
    if (!zip || zip.length === 0) throw new UnprocessableEntityException('file: an archive (.zip) is required');
    const archive = await checkArchive(zip);
    const { manifest } = archive;
    const id = await this.repo.transaction(async (em) => {
      const created = await restoreArchive(archive, em, importer);
      await this.audit.record(
        {
          actor: importer,
          researchId: created,
          entity: 'research',
          entityId: created,
          action: 'import',
          after: { from_research_id: manifest.research_id, name: manifest.name, exported_at: manifest.exported_at, data_sha256: manifest.data_sha256, readings: manifest.readings },
        },
        em,
      );
      return created;
    }).catch((error: unknown) => {
      // A row the manifest vouches for that the tables still refuse (a value of another type, a key twice, a reference
      // to nothing): the archive was made wrong or by something else. Nothing of it was kept.
      const code = (error as { code?: string }).code ?? '';
      if (/^2[23]/.test(code)) throw new UnprocessableEntityException(`the archive's record does not fit this database: ${(error as Error).message}`);
      throw error;
    });
    return { id, source: manifest.research_id, dataSha256: manifest.data_sha256, readings: manifest.readings };
  }
}
