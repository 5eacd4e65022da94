import {
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Bus } from '@furnace/bus';
import {
  DAQ_REVOCATIONS_CHANNEL,
  type FurnaceDaqCredentialEntity,
  type FurnaceEntity,
  hashDaqPassword,
  newDaqPassword,
} from '@furnace/db';
import { BUS } from '../core/tokens';
import { changes, furnaceValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { isUniqueViolation } from '../core/errors';
import { DaqBrokerAccounts } from './daq-broker-accounts';
import type { FurnaceInput } from './furnace.dto';
import { FurnacesRepository } from './furnaces.repository';

/** The MQTT username of a furnace's DAQ. */
const daqUsername = (code: string) => `daq-${code}`;

/** A credential just issued, its password in clear for the one answer that shows it. */
export interface IssuedDaqCredential {
  credential: FurnaceDaqCredentialEntity;
  password: string;
  code: string;
  rotated: boolean;
}

const codeTaken = (code: string) => new ConflictException(`A furnace with the code "${code}" already exists`);

/** The lab's furnaces (docs/behaviour.md, "Furnaces"): superusers manage them, staff read them. */
@Injectable()
export class FurnacesService {
  private readonly logger = new Logger('Furnaces');

  constructor(
    private readonly repo: FurnacesRepository,
    private readonly audit: AuditService,
    @Inject(BUS) private readonly bus: Bus,
    private readonly brokerAccounts: DaqBrokerAccounts,
  ) {}

  list(): Promise<FurnaceEntity[]> {
    return this.repo.list();
  }

  /** Every furnace's DAQ credential (never the secret: its hash stays in this module). */
  credentials(): Promise<Map<string, FurnaceDaqCredentialEntity>> {
    return this.repo.credentials();
  }

  credential(furnaceId: string): Promise<FurnaceDaqCredentialEntity | null> {
    return this.repo.findCredential(furnaceId);
  }

  /**
   * Issues the furnace DAQ's MQTT credential, or replaces it (docs/behaviour.md, "DAQ credentials"): a new
   * random password whose hash alone is kept. The one replaced stops working at once: its open connections are
   * closed (the embedded broker hears it on the bus; Mosquitto is told by DaqBrokerAccounts) and its next
   * sign-in is refused.
   */
  async issueDaqCredential(id: string, by: string): Promise<IssuedDaqCredential> {
    const password = newDaqPassword();
    const passwordHash = await hashDaqPassword(password);
    const issued = await this.audit.transaction(async (em) => {
      const furnace = await this.repo.findForUpdate(id, em);
      if (!furnace) throw new NotFoundException('Furnace not found');
      const before = await this.repo.findCredential(id, em);
      const credential = { furnaceId: id, username: daqUsername(furnace.code), passwordHash, issuedAt: new Date() };
      await this.repo.saveCredential(credential, em);
      await this.auditCredential(em, by, id, before, credential);
      // Mosquitto takes the credential before it is committed: a broker that cannot take it leaves everything as
      // it was (503), rather than a password shown once that the broker refuses (docs/behaviour.md §16).
      await this.brokerAccounts.issued(credential.username, furnace.code, password).catch((e: Error) => {
        this.logger.warn(`The broker was not given ${credential.username}: ${e.message}; nothing changed`);
        throw new ServiceUnavailableException(
          `The MQTT broker could not take the DAQ credential (${e.message}); nothing was changed: try again once it is reachable`,
        );
      });
      return { credential, password, code: furnace.code, rotated: before !== null, previous: before?.username };
    });
    if (issued.previous) await this.revokeDaq(issued.previous);
    if (issued.previous && issued.previous !== issued.credential.username)
      await this.brokerAccounts.removed(issued.previous);
    return issued;
  }

  /** The audit entry of a DAQ credential issued, rotated or withdrawn: who it signs in as and since when, never the secret. */
  private auditCredential(
    em: EntityManager,
    by: string,
    furnaceId: string,
    before: AuditedCredential | null,
    after: AuditedCredential | null,
  ): Promise<void> {
    const values = (c: AuditedCredential | null) =>
      c && { daq_username: c.username, daq_credential_issued_at: c.issuedAt.toISOString() };
    return this.audit.record(
      {
        actor: by,
        researchId: null,
        entity: 'furnace',
        entityId: furnaceId,
        action: 'daq-credential',
        before: values(before),
        after: values(after),
      },
      em,
    );
  }

  /** Tells the broker to close the connections signed in with this username (best effort: logged on failure). */
  private async revokeDaq(username: string): Promise<void> {
    await this.bus
      .publish(DAQ_REVOCATIONS_CHANNEL, username)
      .catch((e: Error) => this.logger.warn(`The broker was not told that ${username} is revoked: ${e.message}`));
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
    let renamed: string | undefined;
    let withdrawn: string | undefined;
    try {
      const updated = await this.audit.transaction(async (em) => {
        const before = await this.repo.findForUpdate(id, em);
        if (!before) throw new NotFoundException('Furnace not found');
        const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
        const after = await this.repo.update(before, given, em);
        if (after.code !== before.code) {
          // Its DAQ's username and topic name the code: the DAQ signs in again under the new ones.
          const credential = await this.repo.findCredential(id, em);
          if (credential && this.brokerAccounts.enabled) {
            // Mosquitto cannot rename a client, and the password is kept only hashed: the credential is
            // withdrawn and must be issued again (docs/behaviour.md §16).
            await this.repo.deleteCredential(id, em);
            await this.auditCredential(em, by, id, credential, null);
            withdrawn = credential.username;
          } else if (credential) {
            await this.repo.renameCredential(id, daqUsername(after.code), em);
            renamed = credential.username;
          }
        }
        const changed = changes(furnaceValues(before), furnaceValues(after));
        if (changed)
          await this.audit.record(
            { actor: by, researchId: null, entity: 'furnace', entityId: id, action: 'update', ...changed },
            em,
          );
        return after;
      });
      if (renamed) await this.revokeDaq(renamed);
      if (withdrawn) await this.brokerAccounts.removed(withdrawn);
      return updated;
    } catch (error) {
      if (isUniqueViolation(error) && input.code !== undefined) throw codeTaken(input.code);
      throw error;
    }
  }

  /** A furnace that tests were scheduled on is kept (409): their record names it; so is one holding unassigned readings. */
  async delete(id: string, by: string): Promise<void> {
    const credential = await this.audit.transaction(async (em) => {
      const furnace = await this.repo.findForUpdate(id, em);
      if (!furnace) throw new NotFoundException('Furnace not found');
      const credential = await this.repo.findCredential(id, em);
      const tests = await this.repo.countResearches(id, em);
      if (tests > 0) {
        throw new ConflictException(
          `Furnace "${furnace.name}" has ${tests} test${tests === 1 ? '' : 's'} scheduled on it (their record names it): it cannot be deleted`,
        );
      }
      const unassigned = await this.repo.countUnassigned(id, em);
      if (unassigned > 0) {
        throw new ConflictException(
          `Furnace "${furnace.name}" holds ${unassigned} unassigned reading${unassigned === 1 ? '' : 's'} of its DAQ: attach them to a test first; it cannot be deleted`,
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
      return credential;
    });
    // The credential went with the furnace (ON DELETE CASCADE); so do its DAQ's connections.
    if (credential) {
      await this.revokeDaq(credential.username);
      await this.brokerAccounts.removed(credential.username);
    }
  }
}

type AuditedCredential = { username: string; issuedAt: Date };
