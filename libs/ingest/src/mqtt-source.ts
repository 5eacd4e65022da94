import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { type Ack, AckGate } from './ack-gate';

export interface MqttSourceOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** Topic filters, e.g. furnace/+/data or $share/furnace-ingest/furnace/+/data. */
  filters: readonly string[];
  /** Handles one message; a returned promise holds the next message until it settles. Must not throw. */
  onMessage(topic: string, payload: Buffer, ack: Ack): void | Promise<void>;
  onConnectionChange?(connected: boolean): void;
  onError?(error: Error): void;
  /** First reconnect delay; doubled after each failed attempt up to maxReconnectMs. */
  minReconnectMs?: number;
  maxReconnectMs?: number;
}

/**
 * The ingest's connection to the broker: QoS 1 subscription in a persistent session (stable client
 * id, clean session off, MQTT 3.1.1 where a persistent session needs no expiry setting), so that
 * messages published while the ingest is down wait in the broker. Acks leave only when the ingest
 * releases them (see AckGate). Reconnects with exponential backoff.
 */
export class MqttSource {
  private readonly client: MqttClient;
  private readonly gate = new AckGate();
  private readonly subscribed: Promise<void>;
  private stopping = false;

  constructor(private readonly options: MqttSourceOptions) {
    const minReconnect = options.minReconnectMs ?? 500;
    const maxReconnect = options.maxReconnectMs ?? 30_000;
    const clientOptions: IClientOptions = {
      clientId: options.clientId,
      clean: false,
      protocolVersion: 4,
      username: options.username,
      password: options.password,
      keepalive: 30,
      reconnectPeriod: minReconnect,
      connectTimeout: 10_000,
      // The subscription lives in the broker's session; it is renewed on every connect anyway, in case the broker lost it.
      resubscribe: false,
      manualConnect: true,
    };
    this.client = mqtt.connect(options.url, clientOptions);
    this.gate.install(this.client);

    this.client.handleMessage = (packet, callback) => {
      const ack = this.gate.hold(packet.messageId, this.client);
      let outcome: void | Promise<void> = undefined;
      try {
        outcome = options.onMessage(packet.topic, toBuffer(packet.payload), ack);
      } catch (error) {
        // onMessage must not throw; if it does, the message stays unacknowledged and is redelivered.
        options.onError?.(error as Error);
      }
      if (outcome instanceof Promise) {
        outcome.then(
          () => callback(),
          (error: unknown) => {
            options.onError?.(error as Error);
            callback();
          },
        );
      } else {
        callback();
      }
    };

    let resolveSubscribed!: () => void;
    this.subscribed = new Promise((resolve) => (resolveSubscribed = resolve));
    this.client.on('connect', () => {
      // Each PUBACK is a few bytes written after a commit: with Nagle's algorithm on (MQTT.js leaves it
      // on) it can wait for the broker's delayed ACK, holding the broker's in-flight window.
      const stream = this.client.stream as { setNoDelay?: (noDelay: boolean) => unknown } | undefined;
      stream?.setNoDelay?.(true);
      this.client.options.reconnectPeriod = minReconnect;
      options.onConnectionChange?.(true);
      this.client.subscribe([...options.filters], { qos: 1 }, (error, granted) => {
        const refused = granted?.find((g) => g.qos === 128);
        if (error || refused) {
          options.onError?.(error ?? new Error(`the broker refused the subscription to ${refused?.topic}`));
          return;
        }
        resolveSubscribed();
      });
    });
    this.client.on('close', () => {
      options.onConnectionChange?.(false);
      if (this.stopping) return;
      // Exponential backoff with jitter: a restarting broker is not hammered by every client at once.
      const next = Math.min(maxReconnect, (this.client.options.reconnectPeriod ?? minReconnect) * 2);
      this.client.options.reconnectPeriod = Math.round(next * (0.8 + Math.random() * 0.4));
    });
    this.client.on('error', (error) => options.onError?.(error));
  }

  /** Connects; resolves once the subscription is active (the broker may be down: keeps retrying). */
  start(): Promise<void> {
    this.client.connect();
    return this.subscribed;
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Acks still held for writes; the broker stops sending once its in-flight window is full. */
  get heldAcks(): number {
    return this.gate.pending;
  }

  /** Disconnects cleanly (the session and its subscription stay in the broker). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.client.endAsync(false).catch(() => undefined);
  }
}

function toBuffer(payload: Buffer | string): Buffer {
  return typeof payload === 'string' ? Buffer.from(payload) : payload;
}
