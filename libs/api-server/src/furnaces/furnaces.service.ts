import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { FurnaceEntity } from '@furnace/db';
import { changes, furnaceValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { isUniqueViolation } from '../users/users.repository';
import type { FurnaceInput } from './furnace.dto';
import { FurnacesRepository } from './furnaces.repository';

const codeTaken = (code: string) => new ConflictException(`A furnace with the code "${code}" already exists`);

/** The lab's furnaces (docs/behaviour.md, "Furnaces"): superusers manage them, staff read them. */
@Injectable()
export class FurnacesService {
  constructor(
    private readonly repo: FurnacesRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<FurnaceEntity[]> {
    return this.repo.list();
  }

  async get(id: string): Promise<FurnaceEntity> {
    const furnace = await this.repo.findById(id);
    if (!furnace) throw new NotFoundException('Furnace not found');
    return furnace;
  }

  async create(input: FurnaceInput & Pick<FurnaceEntity, 'name' | 'code'>, by: string): Promise<FurnaceEntity> {
    const fields = {
      name: input.name,
      code: input.code,
      scanPeriodS: input.scanPeriodS ?? 1,
      standard: input.standard ?? 'EN_1363_1',
      heatingCurve: input.heatingCurve ?? 'iso834',
      pressureTargetPa: input.pressureTargetPa ?? null,
      pressureTolerancePa: input.pressureTolerancePa ?? null,
      watchEmails: input.watchEmails ?? [],
      webhookUrl: input.webhookUrl ?? null,
      webhookSecret: input.webhookSecret ?? null,
    };
    try {
      return await this.audit.transaction(async (em) => {
        const furnace = await this.repo.create(fields, em);
        await this.audit.record(
          {
            actor: by,
            researchId: null,
            entity: 'furnace',
            entityId: furnace.id,
            action: 'create',
            after: furnaceValues(furnace),
          },
          em,
        );
        return furnace;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken(input.code);
      throw error;
    }
  }

  async update(id: string, input: FurnaceInput, by: string): Promise<FurnaceEntity> {
    try {
      return await this.audit.transaction(async (em) => {
        const before = await this.repo.findForUpdate(id, em);
        if (!before) throw new NotFoundException('Furnace not found');
        const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
        const after = await this.repo.update(before, given, em);
        const changed = changes(furnaceValues(before), furnaceValues(after));
        if (changed)
          await this.audit.record(
            { actor: by, researchId: null, entity: 'furnace', entityId: id, action: 'update', ...changed },
            em,
          );
        return after;
      });
    } catch (error) {
      if (isUniqueViolation(error) && input.code !== undefined) throw codeTaken(input.code);
      throw error;
    }
  }

  /** A furnace that tests were scheduled on is kept (409): their record names it. */
  async delete(id: string, by: string): Promise<void> {
    await this.audit.transaction(async (em) => {
      const furnace = await this.repo.findForUpdate(id, em);
      if (!furnace) throw new NotFoundException('Furnace not found');
      const tests = await this.repo.countResearches(id, em);
      if (tests > 0) {
        throw new ConflictException(
          `Furnace "${furnace.name}" has ${tests} test${tests === 1 ? '' : 's'} scheduled on it (their record names it): it cannot be deleted`,
        );
      }
      await this.repo.delete(furnace, em);
      await this.audit.record(
        {
          actor: by,
          researchId: null,
          entity: 'furnace',
          entityId: id,
          action: 'delete',
          before: furnaceValues(furnace),
        },
        em,
      );
    });
  }
}
