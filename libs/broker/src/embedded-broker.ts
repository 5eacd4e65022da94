import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Duplex, Transform, type TransformCallback } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { Aedes, AuthenticateError, Client } from 'aedes' with { 'resolution-mode': 'import' };
import {
  DAQ_TOPIC_FILTER,
  FURNACE_TOPIC_FILTER,
  furnaceTopic,
  MAX_DAQ_PAYLOAD_BYTES,
  parseDaqTopic,
  parseFurnaceTopic,
} from '@furnace/contracts';

export interface EmbeddedBroker {
  /** The port it listens on (useful when asked for port 0). */
  port: number;
  /** mqtt:// URL for clients on this machine. */
  url: string;
  /** What the ingest of this process connects with (absent for an open test broker). */
  ingest?: { clientId: string; username: string; password: string };
  /**
   * Ends every connection signed in as this furnace DAQ username, and any sign-in with it still being
   * checked (its credential was rotated or its furnace renamed or deleted); resolves to how many were closed.
   */
  revokeDaq(username: string): number;
  stop(): Promise<void>;
}

/**
 * Who may do what on the embedded broker (docs/behaviour.md, "DAQ credentials"; the same rules as
 * infra/mosquitto):
 * - the ingest (its reserved client id and a password generated at every start, never shown)
 *   subscribes to `furnace/+/data` and `lab/+/data` and publishes nothing;
 * - a furnace DAQ (its credential, checked by `furnaceDaq` when it connects) may publish to its
 *   furnace's `lab/{code}/data` only;
 * - the installation's DAQ account (`daq`) may publish to every `furnace/{uuid}/data` and `lab/{code}/data`;
 * - nobody else connects: there is no anonymous client, on loopback neither. No DAQ subscribes to anything.
 */
export interface BrokerAccess {
  /** The ingest's MQTT client id: nobody else may connect with it. */
  ingestClientId: string;
  /** The installation-wide DAQ account (MQTT_USERNAME/MQTT_PASSWORD, or the one `npm start` generates). */
  daq?: { username: string; password: string };
  /**
   * Checks a furnace DAQ's credential when it connects (the only lookup: what it grants is kept for the
   * connection): its furnace's code when the password matches, else null.
   */
  furnaceDaq?: (username: string, password: string) => Promise<{ furnaceCode: string } | null>;
}

/** What a connected client may do, decided once when it connects. */
type Grant = { kind: 'ingest' } | { kind: 'installation' } | { kind: 'furnace'; username: string; topic: string };

/** The port is taken (on the development machines, by Mosquitto on 1883). */
export class BrokerPortInUseError extends Error {
  constructor(readonly port: number) {
    super(
      `MQTT_PORT ${port} is already in use (another MQTT broker, e.g. Mosquitto, listens there). ` +
        `Set MQTT_PORT to a free port for the embedded broker (e.g. MQTT_PORT=1884 npm start), ` +
        `or MQTT_URL=mqtt://127.0.0.1:${port} to use the broker that is running.`,
    );
    this.name = 'BrokerPortInUseError';
  }
}

/** Largest MQTT packet the broker reads: a 64 KiB payload (as Mosquitto's message_size_limit) plus room for topic and headers. */
export const MAX_PACKET_BYTES = MAX_DAQ_PAYLOAD_BYTES + 512;

/**
 * Reads the MQTT fixed header of every packet as it streams in and ends the connection when a packet
 * would be larger than `limit`, before its body is buffered (aedes itself has no such limit).
 */
class PacketSizeLimit extends Transform {
  private remaining = 0;
  private header: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly onRefused: (size: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - i);
        i += n;
        this.remaining -= n;
        continue;
      }
      this.header.push(chunk[i++]!);
      if (this.header.length === 1) continue;
      const last = this.header[this.header.length - 1]!;
      if (last & 0x80) {
        if (this.header.length > 4) return callback(new Error('malformed MQTT remaining length'));
        continue;
      }
      let length = 0;
      for (let k = this.header.length - 1; k >= 1; k--) length = length * 128 + (this.header[k]! & 0x7f);
      const size = this.header.length + length;
      if (size > this.limit) {
        this.onRefused(size);
        return callback(new Error(`MQTT packet of ${size} bytes is over the ${this.limit}-byte limit`));
      }
      this.remaining = length;
      this.header = [];
    }
    callback(null, chunk);
  }
}

const sameSecret = (given: Buffer | string | undefined, expected: string) => {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

function authError(returnCode: 2 | 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The embedded MQTT broker of `npm start` (aedes, in memory): the same MQTT 3.1.1/5 protocol a
 * furnace DAQ speaks to Mosquitto, with persistent sessions kept as long as the process runs.
 * `access` applies the broker's rules (see BrokerAccess); `'open'` lets any client do anything and is
 * for tests and benchmarks only. Packets over MAX_PACKET_BYTES end the connection in both cases.
 * aedes is ESM-only: imported dynamically (Node 20.19+ loads it natively; jest transforms it).
 */
export async function startEmbeddedBroker(options: {
  port: number;
  host?: string;
  access: BrokerAccess | 'open';
}): Promise<EmbeddedBroker> {
  const log = new Logger('Broker');
  const { Aedes: AedesClass } = await import('aedes');
  const access = options.access === 'open' ? undefined : options.access;
  const ingest = access && {
    clientId: access.ingestClientId,
    username: 'furnace-ingest',
    password: randomBytes(24).toString('base64url'),
  };
  const grants = new WeakMap<Client, Grant>();
  // The furnace DAQs connected (or signing in), to close them when their credential is revoked.
  const furnaceClients = new Set<Client>();
  const pruneClosed = () => {
    for (const c of furnaceClients) if (c.closed) furnaceClients.delete(c);
  };
  // Bumped when a username is revoked: a sign-in whose check started before is refused.
  const revocations = new Map<string, number>();
  const refuse = (client: Client, returnCode: 4 | 5, why: string) => {
    log.warn(`Refused client ${client.id.slice(0, 100)}: ${why}`);
    return authError(returnCode, why);
  };
  const broker: Aedes = await AedesClass.createBroker({
    drainTimeout: 30_000,
    ...(ingest && {
      authenticate: (client, username, password, done) => {
        if (client.id === ingest.clientId) {
          if (username === ingest.username && sameSecret(password, ingest.password)) {
            grants.set(client, { kind: 'ingest' });
            return done(null, true);
          }
          log.warn(`Refused a client using the ingest's reserved client id ${ingest.clientId}`);
          return done(authError(2, 'client id reserved'), false);
        }
        if (!username || password === undefined) return done(refuse(client, 5, 'no username or password'), false);
        const daq = access.daq;
        if (daq && username === daq.username) {
          if (!sameSecret(password, daq.password)) return done(refuse(client, 4, 'bad username or password'), false);
          grants.set(client, { kind: 'installation' });
          return done(null, true);
        }
        if (!access.furnaceDaq) return done(refuse(client, 4, 'bad username or password'), false);
        const generation = revocations.get(username) ?? 0;
        access.furnaceDaq(username, password.toString()).then(
          (found) => {
            if (!found || (revocations.get(username) ?? 0) !== generation)
              return done(refuse(client, 4, `bad username or password (${username.slice(0, 64)})`), false);
            grants.set(client, { kind: 'furnace', username, topic: furnaceTopic(found.furnaceCode) });
            if (furnaceClients.size >= 1000) pruneClosed();
            furnaceClients.add(client);
            done(null, true);
          },
          (error: Error) => {
            log.warn(`Could not check the DAQ credential ${username.slice(0, 64)}: ${error.message}`);
            // 3: server unavailable, the DAQ retries.
            done(Object.assign(new Error('credential check failed'), { returnCode: 3 }) as AuthenticateError, false);
          },
        );
      },
      authorizePublish: (client, packet, done) => {
        const grant = client && grants.get(client);
        const allowed =
          grant?.kind === 'furnace'
            ? packet.topic === grant.topic
            : grant?.kind === 'installation' &&
              (parseDaqTopic(packet.topic) !== null || parseFurnaceTopic(packet.topic) !== null);
        if (allowed) return done(null);
        log.warn(`Refused a publish to ${packet.topic.slice(0, 200)} from ${client?.id.slice(0, 100) ?? 'the broker'}`);
        done(new Error('publish not allowed'));
      },
      authorizeSubscribe: (client, subscription, done) => {
        if (
          grants.get(client)?.kind === 'ingest' &&
          (subscription.topic === DAQ_TOPIC_FILTER || subscription.topic === FURNACE_TOPIC_FILTER)
        )
          return done(null, subscription);
        log.warn(`Refused a subscription to ${subscription.topic.slice(0, 200)} from ${client.id.slice(0, 100)}`);
        done(null, null);
      },
    }),
  });
  broker.on('clientDisconnect', (client) => furnaceClients.delete(client));
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // aedes turns Nagle's algorithm off on a socket it is handed; it is handed the wrapper below, so
    // here: otherwise a small packet waits up to 40 ms for the peer's delayed ACK.
    socket.setNoDelay(true);
    const limited = socket.pipe(
      new PacketSizeLimit(MAX_PACKET_BYTES, (size) =>
        log.warn(`Refused an MQTT packet of ${size} bytes from ${socket.remoteAddress} (limit ${MAX_PACKET_BYTES})`),
      ),
    );
    limited.on('error', () => socket.destroy());
    broker.handle(Duplex.from({ readable: limited, writable: socket }));
  });
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new BrokerPortInUseError(options.port);
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    port,
    url: `mqtt://${urlHost}:${port}`,
    ingest,
    revokeDaq(username) {
      revocations.set(username, (revocations.get(username) ?? 0) + 1);
      pruneClosed();
      let closed = 0;
      for (const client of furnaceClients) {
        const grant = grants.get(client);
        if (grant?.kind === 'furnace' && grant.username === username) {
          furnaceClients.delete(client);
          client.close();
          closed++;
        }
      }
      if (closed > 0)
        log.log(`Closed ${closed} connection(s) of the DAQ ${username}: its credential is no longer valid`);
      return closed;
    },
    async stop() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
