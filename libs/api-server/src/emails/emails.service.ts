import { BadGatewayException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { ApiConfig } from '@furnace/config';
import type { ResearchEmailEntity, ResearchEntity } from '@furnace/db';
import { emailValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { Revocations } from '../auth/revocations';
import { APP_CONFIG } from '../core/tokens';
import { MailDeliveryError, MailService } from '../mail/mail.service';
import { ResearchService } from '../research/research.service';
import { emailLanguage } from './email.dto';
import { DuplicateClientEmailError, EmailsRepository } from './emails.repository';
import { invitationEmail } from './invitation';
import type { Language } from '@furnace/text';

const DUPLICATE = 'This e-mail address is already on the list of this research';

/** Clients' e-mail records and their invitations. */
@Injectable()
export class EmailsService {
  constructor(
    private readonly repo: EmailsRepository,
    private readonly research: ResearchService,
    private readonly mail: MailService,
    private readonly revocations: Revocations,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
  ) {}

  async list(researchId: string): Promise<ResearchEmailEntity[]> {
    await this.research.get(researchId);
    return this.repo.list(researchId);
  }

  async get(id: string): Promise<ResearchEmailEntity> {
    const record = await this.repo.findById(id);
    if (!record) throw new NotFoundException('E-mail record not found');
    return record;
  }

  // The audit entries name a record by its address, never by its id: that is the client's access code.

  async create(researchId: string, email: string, lang: Language, by: string): Promise<ResearchEmailEntity> {
    await this.research.get(researchId);
    return this.unique(() =>
      this.audit.transaction(async (em) => {
        const created = await this.repo.create(researchId, email, lang, em);
        await this.audit.record(
          { actor: by, researchId, entity: 'email', action: 'create', after: emailValues(created) },
          em,
        );
        return created;
      }),
    );
  }

  async update(id: string, email: string, by: string): Promise<ResearchEmailEntity> {
    const record = await this.get(id);
    if (record.email === email.toLowerCase()) return record;
    const changed = await this.unique(() =>
      this.audit.transaction(async (em) => {
        const row = await this.repo.changeAddress(record, email, em);
        await this.audit.record(
          {
            actor: by,
            researchId: record.researchId,
            entity: 'email',
            action: 'update',
            before: emailValues(record),
            after: emailValues(row),
          },
          em,
        );
        return row;
      }),
    );
    // The old code no longer opens anything: streams watching with it close on every instance.
    await this.revocations.publish({ email: record.id });
    return changed;
  }

  async delete(id: string, by: string): Promise<void> {
    const record = await this.get(id);
    await this.audit.transaction(async (em) => {
      await this.repo.delete(id, em);
      await this.audit.record(
        { actor: by, researchId: record.researchId, entity: 'email', action: 'delete', before: emailValues(record) },
        em,
      );
    });
    await this.revocations.publish({ email: id });
  }

  /** Sends one invitation; is_sent becomes true only once the mail server accepted it. */
  async send(id: string, by: string): Promise<ResearchEmailEntity> {
    const record = await this.get(id);
    const research = await this.research.get(record.researchId);
    try {
      await this.deliver(research, record);
    } catch (e) {
      if (e instanceof MailDeliveryError)
        throw new BadGatewayException(`The mail server did not accept the invitation to ${record.email}: ${e.message}`);
      throw e;
    }
    return this.markSent(record, by);
  }

  /** Sends every invitation not sent yet. Those accepted stay marked sent even when another fails. */
  async sendAll(researchId: string, by: string): Promise<ResearchEmailEntity[]> {
    const research = await this.research.get(researchId);
    const failed: string[] = [];
    for (const record of await this.repo.listUnsent(researchId)) {
      try {
        await this.deliver(research, record);
        await this.markSent(record, by);
      } catch (e) {
        if (!(e instanceof MailDeliveryError)) throw e;
        failed.push(record.email);
      }
    }
    if (failed.length)
      throw new BadGatewayException(`The mail server did not accept the invitations to: ${failed.join(', ')}`);
    return this.repo.list(researchId);
  }

  /** An invitation the mail server accepted: the record marked sent, with its entry. */
  private markSent(record: ResearchEmailEntity, by: string): Promise<ResearchEmailEntity> {
    return this.audit.transaction(async (em) => {
      const sent = await this.repo.markSent(record, new Date(), em);
      await this.audit.record(
        {
          actor: by,
          researchId: record.researchId,
          entity: 'email',
          action: 'send',
          before: emailValues(record),
          after: emailValues(sent),
        },
        em,
      );
      return sent;
    });
  }

  /** In the record's language, which staff chose when adding the address (docs/behaviour.md §1). */
  private deliver(research: ResearchEntity, record: ResearchEmailEntity): Promise<void> {
    const link = `${this.config.frontendHost}/view/${research.id}?code=${record.id}`;
    const content = invitationEmail({
      brand: this.config.brandName,
      researchName: research.name,
      startAt: research.startAt,
      endAt: research.endAt,
      link,
      lang: emailLanguage(record),
    });
    return this.mail.send({ to: record.email, ...content, link });
  }

  private async unique<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      if (e instanceof DuplicateClientEmailError) throw new ConflictException(DUPLICATE);
      throw e;
    }
  }
}
