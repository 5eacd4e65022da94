import {
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  UnprocessableEntityException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { AuditService } from '../audit/audit.service';
import { checkArchive, restoreArchive, STALE_IMPORT_S } from './archive-import';
import { ArchiveRepository } from './archive.repository';
import { writeArchive } from './archive-writer';

/** How often the API looks for imports whose process died (their research still marked importing, untouched). */
const SWEEP_MS = 5 * 60_000;

/** The archive of a test's whole record (docs/behaviour.md, "The archive"): its export and its import. */
@Injectable()
export class ArchiveService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(ArchiveService.name);
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly repo: ArchiveRepository,
    private readonly audit: AuditService,
  ) {}

  /** At start-up and every SWEEP_MS: the research of an import that died (its process gone) is deleted. */
  onApplicationBootstrap(): void {
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  async sweep(staleSeconds = STALE_IMPORT_S): Promise<void> {
    try {
      for (const id of await this.repo.staleImports(staleSeconds)) {
        this.log.warn(`Deleting the research ${id} of an import that did not finish`);
        await this.repo.discard(id);
      }
    } catch (error) {
      this.log.error(`The sweep of unfinished imports failed: ${(error as Error).message}`);
    }
  }

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
  async import(
    zip: Buffer | undefined,
    importer: string,
  ): Promise<{ id: string; source: string; dataSha256: string; readings: number }> {
    if (!zip || zip.length === 0) throw new UnprocessableEntityException('file: an archive (.zip) is required');
    // Every file against the manifest before anything is written.
    const archive = await checkArchive(zip);
    const { manifest } = archive;
    const id = randomUUID();
    try {
      await restoreArchive(archive, this.repo, id, importer, (em) =>
        this.audit.record(
          {
            actor: importer,
            researchId: id,
            entity: 'research',
            entityId: id,
            action: 'import',
            after: {
              from_research_id: manifest.research_id,
              name: manifest.name,
              exported_at: manifest.exported_at,
              data_sha256: manifest.data_sha256,
              readings: manifest.readings,
            },
          },
          em,
        ),
      );
    } catch (error) {
      // Nothing of a failed import stays: what its short transactions wrote goes (it was never visible).
      await this.repo
        .discard(id)
        .catch((e: unknown) =>
          this.log.error(`The failed import ${id} was not deleted (the sweep will): ${(e as Error).message}`),
        );
      // A row the manifest vouches for that the tables still refuse (a value of another type, a key twice, a reference
      // to nothing): the archive was made wrong or by something else.
      const code = (error as { code?: string }).code ?? '';
      if (/^2[23]/.test(code))
        throw new UnprocessableEntityException(
          `the archive's record does not fit this database: ${(error as Error).message}`,
        );
      throw error;
    }
    return { id, source: manifest.research_id, dataSha256: manifest.data_sha256, readings: manifest.readings };
  }
}
