import { BadGatewayException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AppConfig } from '@furnace/config';
import type { ResearchEmailEntity, ResearchEntity } from '@furnace/db';
import { Revocations } from '../auth/revocations';
import { APP_CONFIG } from '../core/tokens';
import { MailDeliveryError, MailService } from '../mail/mail.service';
import { ResearchService } from '../research/research.service';
import { DuplicateClientEmailError, EmailsRepository } from './emails.repository';
import { invitationEmail } from './invitation';

const DUPLICATE = 'This e-mail address is already on the list of this research';

/** Clients' e-mail records and their invitations. */
@Injectable()
export class EmailsService {
  constructor(
    private readonly repo: EmailsRepository,
    private readonly research: ResearchService,
    private readonly mail: MailService,
    private readonly revocations: Revocations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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

  async create(researchId: string, email: string): Promise<ResearchEmailEntity> {
    await this.research.get(researchId);
    return this.unique(() => this.repo.create(researchId, email));
  }

  async update(id: string, email: string): Promise<ResearchEmailEntity> {
    const record = await this.get(id);
    if (record.email === email.toLowerCase()) return record;
    const changed = await this.unique(() => this.repo.changeAddress(record, email));
    // The old code no longer opens anything: streams watching with it close on every instance.
    await this.revocations.publish({ email: record.id });
    return changed;
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    await this.repo.delete(id);
    await this.revocations.publish({ email: id });
  }

  /** Sends one invitation; is_sent becomes true only once the mail server accepted it. */
  async send(id: string): Promise<ResearchEmailEntity> {
    const record = await this.get(id);
    const research = await this.research.get(record.researchId);
    try {
      await this.deliver(research, record);
    } catch (e) {
      if (e instanceof MailDeliveryError) throw new BadGatewayException(`The mail server did not accept the invitation to ${record.email}: ${e.message}`);
      throw e;
    }
    return this.repo.markSent(record, new Date());
  }

  /** Sends every invitation not sent yet. Those accepted stay marked sent even when another fails. */
  async sendAll(researchId: string): Promise<ResearchEmailEntity[]> {
    const research = await this.research.get(researchId);
    const failed: string[] = [];
    for (const record of await this.repo.listUnsent(researchId)) {
      try {
        await this.deliver(research, record);
        await this.repo.markSent(record, new Date());
      } catch (e) {
        if (!(e instanceof MailDeliveryError)) throw e;
        failed.push(record.email);
      }
    }
    if (failed.length) throw new BadGatewayException(`The mail server did not accept the invitations to: ${failed.join(', ')}`);
    return this.repo.list(researchId);
  }

  private deliver(research: ResearchEntity, record: ResearchEmailEntity): Promise<void> {
    const link = `${this.config.frontendHost}/view/${research.id}?code=${record.id}`;
    const content = invitationEmail({ brand: this.config.brandName, researchName: research.name, startAt: research.startAt, endAt: research.endAt, link });
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
