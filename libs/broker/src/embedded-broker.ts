import { createServer, type Server, type Socket } from 'node:net';
import type { Aedes } from 'aedes' with { 'resolution-mode': 'import' };

export interface EmbeddedBroker {
  /** The port it listens on (useful when asked for port 0). */
  port: number;
  /** mqtt:// URL for clients on this machine. */
  url: string;
  stop(): Promise<void>;
}

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

/**
 * The embedded MQTT broker of `npm start` (aedes, in memory): the same MQTT 3.1.1/5 protocol a
 * furnace DAQ speaks to Mosquitto, with persistent sessions kept as long as the process runs.
 * aedes is ESM-only: imported dynamically (Node 20.19+ loads it natively; jest transforms it).
 */
export async function startEmbeddedBroker(options: { port: number; host?: string }): Promise<EmbeddedBroker> {
  const { Aedes: AedesClass } = await import('aedes');
  const broker: Aedes = await AedesClass.createBroker({ drainTimeout: 30_000 });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
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
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    port,
    url: `mqtt://${urlHost}:${port}`,
    async stop() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
