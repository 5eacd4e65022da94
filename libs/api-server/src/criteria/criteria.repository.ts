import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { CriteriaMarker } from '@furnace/contracts';
import { readIgnitionAt } from '../history/ignition';
import type { StoredFrameRow } from '../history/stored-frame';
import { lastFrameTime, ObservationEntity, queryOn, ResearchEntity, researchMarkers, ThermoExclusionEntity } from '@furnace/db';
import { RealArrayReader } from '../history/real-array';
import { criteriaFramesSql } from './criteria.queries';
import { CopyOut, FramePage, framesCopySql } from './criteria-frames';

/** Pages of frames asked for ahead of the one the engine takes (~5 MB each for 300 thermocouples). */
const PAGES_AHEAD = 3;

/** All database I/O of the criteria: observations, thermocouple exclusions and the frames the engine reads. */
@Injectable()
export class CriteriaRepository {
  /** Whether the database serves COPY … TO STDOUT (the embedded PGlite's socket server may not): null until tried. */
  private copyServed: boolean | null = null;

  constructor(private readonly dataSource: DataSource) {}

  research(id: string): Promise<ResearchEntity | null> {
    return this.dataSource.getRepository(ResearchEntity).findOneBy({ id });
  }

  listObservations(researchId: string, visibleOnly: boolean): Promise<ObservationEntity[]> {
    return this.dataSource.getRepository(ObservationEntity).find({
      where: visibleOnly ? { researchId, visibleToClients: true } : { researchId },
      order: { time: 'ASC', createdAt: 'ASC' },
    });
  }

  findObservation(id: string): Promise<ObservationEntity | null> {
    return this.dataSource.getRepository(ObservationEntity).findOneBy({ id });
  }

  createObservation(fields: Pick<ObservationEntity, 'researchId' | 'time' | 'kind' | 'note' | 'visibleToClients' | 'createdBy'>, em: EntityManager): Promise<ObservationEntity> {
    const repo = em.getRepository(ObservationEntity);
    return repo.save(repo.create({ ...fields, id: randomUUID() }));
  }

  /** The observation with `fields` changed (a new object: `entity` stays as it was). */
  async updateObservation(entity: ObservationEntity, fields: Partial<Pick<ObservationEntity, 'note' | 'visibleToClients'>>, em: EntityManager): Promise<ObservationEntity> {
    if (Object.keys(fields).length > 0) await em.getRepository(ObservationEntity).update({ id: entity.id }, fields);
    return Object.assign(new ObservationEntity(), entity, fields);
  }

  async deleteObservation(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ObservationEntity).delete({ id });
  }

  listExclusions(researchId: string): Promise<ThermoExclusionEntity[]> {
    return this.dataSource.getRepository(ThermoExclusionEntity).find({ where: { researchId }, order: { fromTime: 'ASC', createdAt: 'ASC' } });
  }

  findExclusion(id: string): Promise<ThermoExclusionEntity | null> {
    return this.dataSource.getRepository(ThermoExclusionEntity).findOneBy({ id });
  }

  createExclusion(fields: Pick<ThermoExclusionEntity, 'researchId' | 'thermoId' | 'fromTime' | 'reason' | 'createdBy'>, em: EntityManager): Promise<ThermoExclusionEntity> {
    const repo = em.getRepository(ThermoExclusionEntity);
    return repo.save(repo.create({ ...fields, id: randomUUID() }));
  }

  async deleteExclusion(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ThermoExclusionEntity).delete({ id });
  }

  /** The distinct (thermo_id, type_name) pairs of the research's thermocouple configs, with a door's zone (I1 / I2). */
  markers(researchId: string): Promise<CriteriaMarker[]> {
    return researchMarkers(queryOn(this.dataSource), researchId);
  }

  newestTime(researchId: string): Promise<number | null> {
    return lastFrameTime(queryOn(this.dataSource), researchId);
  }

  /** Wall-clock time of ignition from the frames' own timestamps (see readIgnitionAt). */
  ignitionAt(researchId: string): Promise<Date | null> {
    return readIgnitionAt(this.dataSource, researchId);
  }

  /**
   * The research's frames in time order, one page (keyset pagination: each page is one index range
   * scan, no cursor, no transaction, so a long test never sits in memory).
   */
  frames(researchId: string, after: number | null, limit: number): Promise<StoredFrameRow[]> {
    return this.dataSource.query(criteriaFramesSql(after !== null), after === null ? [researchId, limit] : [researchId, limit, after]);
  }

  /**
   * The research's frames after `after` (s) in time order, a page of at most `limit` at a time, decoded
   * (criteria-frames.ts: COPY's binary form, on one connection held for the pass). Once a page comes back
   * full, PAGES_AHEAD pages are asked for before the current one is handed over (each after the newest
   * frame known, the pages between passed over), so the database reads and sends them while the caller
   * works on this one. A frame stored meanwhile may shift a page by a row: a frame read twice the engine
   * ignores (not newer than its newest); one missed is found as a late frame (CriteriaKeeper.verify). The
   * page object is reused: a page is valid until the caller asks for the next.
   */
  async *framePages(researchId: string, after: number | null, limit: number): AsyncGenerator<FramePage> {
    const page = new FramePage();
    if (this.copyServed === false) {
      yield* this.textPages(page, researchId, after, limit);
      return;
    }
    if (after !== null) {
      // Catching up (a running test: a frame or none since the last sync, every reader's request): one
      // plain statement, as text; COPY and its connection only when there is a page and more.
      const rows = await this.frames(researchId, after, limit);
      if (rows.length === 0) return;
      yield page.fill(rows, new RealArrayReader());
      if (rows.length < limit) return;
      after = rows[rows.length - 1]!.time;
    }
    const runner = this.dataSource.createQueryRunner();
    const pending: CopyOut[] = [];
    try {
      const client = (await runner.connect()) as { query(submittable: CopyOut): unknown };
      // One statement at a time on the connection: the next is sent as the one before it is answered.
      let sent = 0;
      let busy = false;
      const queued: CopyOut[] = [];
      const send = () => {
        const copy = queued[sent];
        if (busy || copy === undefined) return;
        sent++;
        busy = true;
        client.query(copy);
        void copy.done.catch(() => undefined).then(() => {
          busy = false;
          send();
        });
      };
      // The pages' buffers go round: one decoded is handed to the next page asked for.
      const spare: Buffer[] = [];
      const ask = (from: number | null, skip: number) => {
        const copy = new CopyOut(framesCopySql(researchId, from, limit, skip), spare.pop());
        queued.push(copy);
        pending.push(copy);
        send();
      };
      ask(after, 0);
      while (pending.length > 0) {
        let bytes: Buffer;
        const copy = pending.shift()!;
        try {
          bytes = await copy.done;
        } catch (error) {
          if (this.copyServed !== null) throw error;
          // Not served here (the embedded database): the text form from now on.
          this.copyServed = false;
          new Logger('Criteria').log(`Frames read as text: COPY is not served here (${(error as Error).message})`);
          yield* this.textPages(page, researchId, after, limit);
          return;
        }
        this.copyServed = true;
        page.decode(bytes);
        spare.push(copy.buffer);
        if (page.count === 0) return;
        if (page.count === limit) {
          // Pages asked for already follow this one; the next ones after them.
          const newest = page.time[page.count - 1]!;
          while (pending.length < PAGES_AHEAD) ask(newest, pending.length * limit);
        }
        yield page;
        if (page.count < limit) return;
      }
    } finally {
      // Pages asked for and not taken (the last page came, or the caller stopped): the connection goes back once they are answered.
      await Promise.all(pending.map((copy) => copy.done.catch(() => undefined)));
      await runner.release();
    }
  }

  private async *textPages(page: FramePage, researchId: string, after: number | null, limit: number): AsyncGenerator<FramePage> {
    const reader = new RealArrayReader();
    let next = this.frames(researchId, after, limit);
    for (;;) {
      const rows = await next;
      const more = rows.length === limit;
      if (more) next = this.frames(researchId, rows[rows.length - 1]!.time, limit);
      yield page.fill(rows, reader);
      if (!more) return;
    }
  }
}
