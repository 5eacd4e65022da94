import type { MqttClient, Packet } from 'mqtt';

/** Acknowledges one received message to the broker; idempotent. */
export interface Ack {
  release(): void;
}

const NO_ACK: Ack = { release: () => undefined };

type SendPacket = (packet: Packet, cb?: (error?: Error) => void, cbStorePut?: () => void, noStore?: boolean) => void;

interface Held extends Ack {
  parked: Packet | null;
  released: boolean;
}

/**
 * Holds the PUBACK of each QoS 1 message until the ingest says the message is safe (written to the
 * database, refused and dead-lettered, or handed to the outage buffer). A message whose ack never
 * left is redelivered by the broker to the persistent session, so killing the ingest loses nothing.
 *
 * MQTT.js acknowledges a message as soon as `handleMessage` calls back, and processes the next
 * message only after that: holding the callback would allow one message per write. Instead the
 * PUBACK packet itself is parked on its way out (MQTT.js's internal `_sendPacket`) and the next
 * message is processed at once. That is a private method: `mqtt` is pinned to an exact version in
 * package.json, ack-gate.int-spec.ts checks the gate against that version and a real broker, and
 * `install` refuses a client without it, so the ingest does not start rather than silently
 * acknowledging at once (at-most-once delivery on a crash). A parked ack is dropped when the connection it
 * belongs to closes: the broker redelivers that message on the next connection, and the
 * idempotent write ignores the copy.
 */
export class AckGate {
  private readonly held = new Map<number, Held>();
  private generation = 0;
  private send: SendPacket | null = null;

  /** Wraps the client's PUBACKs; throws AckGateUnavailableError when this MQTT.js has no `_sendPacket`. */
  install(client: MqttClient): this {
    // A private method of MQTT.js, typed here by hand (see the class comment).
    const internals = client as unknown as { _sendPacket?: SendPacket };
    const original = internals._sendPacket;
    if (typeof original !== 'function') throw new AckGateUnavailableError();
    const send: SendPacket = original.bind(client);
    this.send = send;
    internals._sendPacket = (packet, cb, cbStorePut, noStore) => {
      if (packet.cmd === 'puback' && typeof packet.messageId === 'number') {
        const ack = this.held.get(packet.messageId);
        if (ack && !ack.released) {
          ack.parked = packet;
          cb?.();
          return;
        }
        this.held.delete(packet.messageId);
      }
      send(packet, cb, cbStorePut, noStore);
    };
    const reset = () => {
      this.generation += 1;
      this.held.clear();
    };
    client.on('close', reset);
    client.on('connect', reset);
    return this;
  }

  /** Called before the message is handled: its PUBACK waits for `release()`. */
  hold(messageId: number | undefined, client: MqttClient): Ack {
    if (!this.send || messageId === undefined) return NO_ACK;
    const generation = this.generation;
    const ack: Held = {
      parked: null,
      released: false,
      release: () => {
        if (ack.released) return;
        ack.released = true;
        // Not parked yet: the PUBACK has not been produced, and the wrapper will let it through.
        if (!ack.parked) return;
        if (this.held.get(messageId) === ack) this.held.delete(messageId);
        if (generation === this.generation && client.connected) this.send?.(ack.parked);
      },
    };
    this.held.set(messageId, ack);
    return ack;
  }

  /** Acks waiting for a write. */
  get pending(): number {
    return this.held.size;
  }
}

/** The installed MQTT.js has no `_sendPacket` to wrap: the ingest must not run without its ack gate. */
export class AckGateUnavailableError extends Error {
  constructor() {
    super(
      'The installed MQTT.js (the mqtt package) has no _sendPacket: the ingest cannot hold acknowledgements until frames are stored. ' +
        'Install the mqtt version package.json pins (npm ci).',
    );
    this.name = 'AckGateUnavailableError';
  }
}
