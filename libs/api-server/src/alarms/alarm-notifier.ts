import { createHmac } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AlarmView } from '@furnace/contracts';
import type { ApiConfig } from '@furnace/config';
import { DEFAULT_LANGUAGE } from '@furnace/text';
import { APP_CONFIG } from '../core/tokens';
import { MailService } from '../mail/mail.service';
import { alarmEmail } from './alarm-email';
import { ALARM_OPTIONS, type AlarmOptions } from './alarm-options';
import { AlarmsRepository, type Recipients } from './alarms.repository';
import { AlarmsService } from './alarms.service';

/** The webhook's signature header: `sha256=` and the hex HMAC-SHA256 of the raw body with the furnace's secret. */
const SIGNATURE_HEADER = 'X-Furnace-Signature';
const TIMESTAMP_HEADER = 'X-Furnace-Timestamp';

const signBody = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Sends the alarms' messages (docs/behaviour.md, "Alarms"): every instance looks for the messages due every
 * sweepMs and claims each with a conditional UPDATE (alarms.queries.ts, CLAIM_DUE_SQL), so exactly one sends it;
 * the claim sets the next one repeatMs ahead, so no alarm gets two messages within it. An alarm raised here is
 * claimed at once. Each message goes by e-mail to the test's responsible engineer and the furnace's watch list,
 * and by the furnace's webhook, retried with backoff; every attempt is logged in alarm_delivery.
 */
@Injectable()
export class AlarmNotifier implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Alarms');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private again = false;
  private stopping = false;
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly repo: AlarmsRepository,
    private readonly mail: MailService,
    alarms: AlarmsService,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
    @Inject(ALARM_OPTIONS) private readonly options: AlarmOptions,
  ) {
    alarms.onRaised(() => this.sweep());
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.sweep(), this.options.sweepMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
    await Promise.allSettled([...this.sending]);
  }

  /** Claims and sends the messages due; a call while a sweep runs makes it sweep once more after. */
  sweep(): void {
    if (this.stopping) return;
    if (this.sweeping) {
      this.again = true;
      return;
    }
    this.sweeping = (async () => {
      do {
        this.again = false;
        let due: AlarmView[];
        try {
          due = await this.repo.claimDue(this.options.repeatMs);
        } catch (error) {
          this.logger.warn(`Alarm messages not claimed: ${(error as Error).message}`);
          return;
        }
        for (const alarm of due) {
          const sent = this.send(alarm).catch((e: Error) =>
            this.logger.warn(`Alarm ${alarm.id} not sent: ${e.message}`),
          );
          this.sending.add(sent);
          void sent.finally(() => this.sending.delete(sent));
        }
      } while (this.again && !this.stopping);
    })().finally(() => (this.sweeping = null));
  }

  private async send(alarm: AlarmView): Promise<void> {
    const to = await this.repo.recipients(alarm.research_id);
    if (!to) return;
    const emails = [...new Set([to.responsibleEmail, ...to.watchEmails].filter((e): e is string => !!e))];
    await Promise.all([
      ...emails.map((email) => this.sendMail(alarm, to, email)),
      to.webhook ? this.callWebhook(alarm, to, to.webhook) : Promise.resolve(),
    ]);
  }

  private async sendMail(alarm: AlarmView, to: Recipients, email: string): Promise<void> {
    const link = `${this.config.frontendHost}/research/${alarm.research_id}/view`;
    const content = alarmEmail({
      brand: this.config.brandName,
      alarm,
      researchName: to.researchName,
      furnaceName: to.furnace?.name ?? null,
      link,
      lang: DEFAULT_LANGUAGE,
    });
    try {
      await this.mail.send({ to: email, ...content, link });
      await this.log(alarm, 'email', email, 1, null);
    } catch (error) {
      await this.log(alarm, 'email', email, 1, (error as Error).message);
    }
  }

  /** POSTs the alarm as JSON, signed; a failure (no answer, not 2xx) is retried after backoff, doubled each time. */
  private async callWebhook(alarm: AlarmView, to: Recipients, hook: { url: string; secret: string }): Promise<void> {
    const sentAt = new Date().toISOString();
    const body = JSON.stringify({
      event: 'alarm',
      sent_at: sentAt,
      message: alarm.notify_count,
      alarm,
      research: { id: alarm.research_id, name: to.researchName },
      furnace: to.furnace,
    });
    for (let attempt = 1; attempt <= this.options.webhookAttempts; attempt++) {
      let error: string | null;
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            [SIGNATURE_HEADER]: signBody(hook.secret, body),
            [TIMESTAMP_HEADER]: sentAt,
            'X-Furnace-Delivery': `${alarm.id}:${alarm.notify_count}`,
          },
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(this.options.webhookTimeoutMs),
        });
        await res.arrayBuffer().catch(() => undefined);
        error = res.ok ? null : `HTTP ${res.status}`;
      } catch (e) {
        error = (e as Error).message;
      }
      await this.log(alarm, 'webhook', hook.url, attempt, error);
      if (error === null || this.stopping) return;
      if (attempt < this.options.webhookAttempts)
        await new Promise((resolve) => setTimeout(resolve, this.options.webhookBackoffMs * 2 ** (attempt - 1)));
    }
    this.logger.warn(`Alarm ${alarm.id}: the webhook failed ${this.options.webhookAttempts} times`);
  }

  private log(alarm: AlarmView, channel: 'email' | 'webhook', target: string, attempt: number, error: string | null) {
    return this.repo
      .logDelivery({
        alarmId: alarm.id,
        channel,
        target,
        message: alarm.notify_count,
        attempt,
        status: error === null ? 'sent' : 'failed',
        error,
      })
      .catch((e: Error) => this.logger.warn(`Alarm delivery not logged: ${e.message}`));
  }
}
