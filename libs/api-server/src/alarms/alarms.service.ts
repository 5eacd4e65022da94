import { ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { type AlarmKind, type AlarmView, encodeBusMessage, researchChannel } from '@furnace/contracts';
import type { Bus } from '@furnace/bus';
import { AuditService } from '../audit/audit.service';
import { BUS } from '../core/tokens';
import { AlarmsRepository } from './alarms.repository';

/**
 * The alarms of the tests (docs/behaviour.md, "Alarms"): raised and cleared by the owner of a research
 * (AlarmWatch), acknowledged by staff; every change is published on the research's bus channel, which the live
 * stream carries to staff only.
 */
@Injectable()
export class AlarmsService {
  private readonly logger = new Logger('Alarms');
  /** Told of each alarm raised here (the notifier sends its first message at once). */
  private readonly raisedListeners: ((alarm: AlarmView) => void)[] = [];

  constructor(
    private readonly repo: AlarmsRepository,
    private readonly audit: AuditService,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  onRaised(listener: (alarm: AlarmView) => void): void {
    this.raisedListeners.push(listener);
  }

  list(researchId: string): Promise<AlarmView[]> {
    return this.repo.list(researchId);
  }

  /** Raises the alarm unless one of its kind and subject is open; the alarm raised, or null. */
  /** How many alarms of the research are open (raised, not cleared; acknowledged or not). */
  async openCount(researchId: string): Promise<number> {
    return (await this.repo.openKeys(researchId)).size;
  }

  async raise(researchId: string, kind: AlarmKind, subject: string, details: object): Promise<AlarmView | null> {
    const alarm = await this.repo.raise(researchId, kind, subject, details);
    if (!alarm) return null;
    this.logger.warn(`Alarm ${kind}${subject ? ` (${subject})` : ''} raised for research ${researchId}`);
    this.publish(alarm);
    for (const listener of this.raisedListeners) listener(alarm);
    return alarm;
  }

  /** Clears the open alarms of a kind and subject (null: any). */
  async clear(researchId: string, kind: AlarmKind | null, subject: string | null): Promise<AlarmView[]> {
    const cleared = await this.repo.clear(researchId, kind, subject);
    for (const alarm of cleared) this.publish(alarm);
    return cleared;
  }

  /** The test ended: every open alarm but those of `keep` is cleared. */
  async clearAllBut(researchId: string, keep: AlarmKind[]): Promise<AlarmView[]> {
    const cleared = await this.repo.clearAllBut(researchId, keep);
    for (const alarm of cleared) this.publish(alarm);
    return cleared;
  }

  /** Staff acknowledge an alarm: its messages stop repeating. Audited in the same transaction. */
  async acknowledge(id: string, by: string): Promise<AlarmView> {
    const alarm = await this.audit.transaction(async (em) => {
      const acknowledged = await this.repo.acknowledge(id, by, em);
      if (!acknowledged) {
        const existing = await this.repo.find(id, em);
        if (!existing) throw new NotFoundException('Alarm not found');
        throw new ConflictException(
          `The alarm was already acknowledged by ${existing.acknowledged_by} at ${existing.acknowledged_at}`,
        );
      }
      await this.audit.record(
        {
          actor: by,
          researchId: acknowledged.research_id,
          entity: 'alarm',
          entityId: acknowledged.id,
          action: 'acknowledge',
          before: {
            kind: acknowledged.kind,
            subject: acknowledged.subject,
            acknowledged_at: null,
            acknowledged_by: null,
          },
          after: {
            kind: acknowledged.kind,
            subject: acknowledged.subject,
            acknowledged_at: acknowledged.acknowledged_at,
            acknowledged_by: acknowledged.acknowledged_by,
          },
        },
        em,
      );
      return acknowledged;
    });
    this.publish(alarm);
    return alarm;
  }

  private publish(alarm: AlarmView): void {
    void this.bus
      .publish(
        researchChannel(alarm.research_id),
        encodeBusMessage({ type: 'alarm', research_id: alarm.research_id, alarm }),
      )
      .catch((e: Error) => this.logger.warn(`Alarm ${alarm.id} not published: ${e.message}`));
  }
}
