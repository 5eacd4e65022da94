// Baseline: the usual alternative, socket.io, broadcasting the frames to every client as an event
// (io.emit encodes the packet once for all of them). WebSocket transport only, no compression, as
// the `ws` server and Furnace Live. argv: broker URL, topic. Prints "ready <port>".
import { createServer } from 'node:http';
import mqtt from 'mqtt';
import { Server } from 'socket.io';

const [brokerUrl, topic] = process.argv.slice(2) as [string, string];

async function main() {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'], perMessageDeflate: false, serveClient: false });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = await mqtt.connectAsync(brokerUrl, {
    clientId: `bench-socketio-${process.pid}`,
    protocolVersion: 4,
    clean: true,
  });
  client.on('message', (_topic, payload) => {
    io.emit('DATA', JSON.parse(payload.toString()));
  });
  await client.subscribeAsync(topic, { qos: 1 });
  process.stdout.write(`ready ${(http.address() as { port: number }).port}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
