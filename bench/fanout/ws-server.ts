// Baseline: the least a WebSocket server can do to broadcast the frames. Subscribes to the benchmark's
// MQTT topic and sends every connected client the frame in the live stream's envelope
// ({"event":"DATA","data":…}), built once per frame, with `ws` as Furnace Live uses it (no compression).
// argv: broker URL, topic. Prints "ready <port>".
import mqtt from 'mqtt';
import { WebSocket, WebSocketServer } from 'ws';

const [brokerUrl, topic] = process.argv.slice(2) as [string, string];
const PREFIX = Buffer.from('{"event":"DATA","data":');
const SUFFIX = Buffer.from('}');

async function main() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((resolve) => wss.once('listening', resolve));
  const client = await mqtt.connectAsync(brokerUrl, {
    clientId: `bench-ws-${process.pid}`,
    protocolVersion: 4,
    clean: true,
  });
  client.on('message', (_topic, payload) => {
    const data = Buffer.concat([PREFIX, payload, SUFFIX]);
    for (const ws of wss.clients) if (ws.readyState === WebSocket.OPEN) ws.send(data, { binary: false });
  });
  await client.subscribeAsync(topic, { qos: 1 });
  process.stdout.write(`ready ${(wss.address() as { port: number }).port}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
