import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';

/** Where Mosquitto's dynamic security plugin takes commands, and answers them. */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

/** One command of the plugin's control API (https://mosquitto.org/documentation/dynamic-security/). */
export interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

/** Its answer: `error` set when it failed (e.g. "Client already exists"), `data` for the list/get commands. */
export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
}

const ANSWER_TIMEOUT_MS = 10_000;

/**
 * The API's administrator connection to Mosquitto's dynamic security plugin: sends commands on
 * `$CONTROL/dynamic-security/v1` and waits for their answers on `…/response`, matched by
 * correlationData (every administrator connection receives every answer, several API instances' too).
 * Reconnects by itself; `onConnect` runs at each (re)connection. Passwords travel only in the commands.
 */
export class DynsecClient {
  private readonly client: MqttClient;
  private readonly pending = new Map<string, (response: DynsecResponse) => void>();

  constructor(
    options: { url: string; username: string; password: string },
    onConnect: () => void,
    onError: (message: string) => void,
  ) {
    this.client = mqtt.connect(options.url, {
      username: options.username,
      password: options.password,
      clientId: `furnace-api-dynsec-${randomUUID().slice(0, 8)}`,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 5000,
      // A command sent while disconnected fails at once rather than waiting for the broker.
      queueQoSZero: false,
      resubscribe: false,
    });
    // Each failure once until the next connection: a broker down for an hour is one warning, not 1800.
    let lastError: string | undefined;
    const report = (message: string) => {
      if (message !== lastError) onError(message);
      lastError = message;
    };
    this.client.on('connect', () => {
      lastError = undefined;
      this.client.subscribe(DYNSEC_RESPONSE_TOPIC, { qos: 1 }, (error, granted) => {
        if (error || granted?.[0]?.qos === 128)
          onError(`cannot read ${DYNSEC_RESPONSE_TOPIC}: ${error?.message ?? 'refused'}`);
        else onConnect();
      });
    });
    this.client.on('error', (error) => report(error.message));
    this.client.on('message', (topic, payload) => {
      if (topic !== DYNSEC_RESPONSE_TOPIC) return;
      let responses: unknown;
      try {
        responses = (JSON.parse(payload.toString()) as { responses?: unknown }).responses;
      } catch {
        return;
      }
      if (!Array.isArray(responses)) return;
      for (const response of responses as (DynsecResponse & { correlationData?: unknown })[]) {
        if (typeof response.correlationData !== 'string') continue;
        const resolve = this.pending.get(response.correlationData);
        if (resolve) {
          this.pending.delete(response.correlationData);
          resolve(response);
        }
      }
    });
  }

  /**
   * Sends the commands in one message (the plugin runs them in order, none interleaved with another
   * message's) and resolves with their answers, in order. Rejects when not connected or unanswered.
   */
  async send(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    if (!this.client.connected) throw new Error('not connected to the broker');
    const tagged = commands.map((c) => ({ ...c, correlationData: randomUUID() }));
    const timers: NodeJS.Timeout[] = [];
    const answers = tagged.map(
      (c) =>
        new Promise<DynsecResponse>((resolve, reject) => {
          timers.push(
            setTimeout(() => {
              this.pending.delete(c.correlationData);
              reject(new Error(`no answer to ${c.command} within ${ANSWER_TIMEOUT_MS / 1000} s`));
            }, ANSWER_TIMEOUT_MS),
          );
          this.pending.set(c.correlationData, resolve);
        }),
    );
    try {
      await this.client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands: tagged }), { qos: 1 });
      return await Promise.all(answers);
    } finally {
      for (const timer of timers) clearTimeout(timer);
      for (const c of tagged) this.pending.delete(c.correlationData);
    }
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
