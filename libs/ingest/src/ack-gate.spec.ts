import { EventEmitter } from 'node:events';
import type { MqttClient, Packet } from 'mqtt';
import { AckGate, AckGateUnavailableError } from './ack-gate';

/** The part of MQTT.js the gate touches: `_sendPacket`, `connected` and the connection events. */
function fakeClient() {
  const sent: Packet[] = [];
  const client = Object.assign(new EventEmitter(), {
    connected: true,
    _sendPacket(packet: Packet, cb?: () => void) {
      sent.push(packet);
      cb?.();
    },
  });
  return { client: client as unknown as MqttClient, raw: client, sent };
}

const puback = (messageId: number): Packet => ({ cmd: 'puback', messageId });
const send = (raw: { _sendPacket: (p: Packet, cb?: () => void) => void }, packet: Packet) =>
  new Promise<void>((resolve) => raw._sendPacket(packet, () => resolve()));

describe('AckGate', () => {
  it('parks a held PUBACK, lets MQTT.js go on at once, and sends it on release', async () => {
    const { client, raw, sent } = fakeClient();
    const gate = new AckGate().install(client);
    const ack = gate.hold(7, client);
    await send(raw, puback(7)); // resolves: the next message is not held up
    expect(sent).toEqual([]);
    expect(gate.pending).toBe(1);
    ack.release();
    ack.release();
    expect(sent).toEqual([puback(7)]);
    expect(gate.pending).toBe(0);
  });

  it('sends at once the PUBACK of a message released before MQTT.js produced it, and lets other packets through', async () => {
    const { client, raw, sent } = fakeClient();
    const gate = new AckGate().install(client);
    gate.hold(3, client).release();
    await send(raw, puback(3));
    await send(raw, { cmd: 'pingreq' });
    expect(sent).toEqual([puback(3), { cmd: 'pingreq' }]);
  });

  it('never sends a PUBACK of an earlier connection: the broker redelivers that message instead', async () => {
    const { client, raw, sent } = fakeClient();
    const gate = new AckGate().install(client);
    const ack = gate.hold(5, client);
    await send(raw, puback(5));
    raw.emit('close');
    raw.emit('connect');
    ack.release();
    expect(sent).toEqual([]);
    // The redelivered copy on the new connection, with the same id, is acknowledged normally.
    const again = gate.hold(5, client);
    await send(raw, puback(5));
    again.release();
    expect(sent).toEqual([puback(5)]);
  });

  it('refuses a client it cannot hold acknowledgements on, instead of letting them leave at once', () => {
    const client = Object.assign(new EventEmitter(), { connected: true }) as unknown as MqttClient;
    expect(() => new AckGate().install(client)).toThrow(AckGateUnavailableError);
    expect(() => new AckGate().install(client)).toThrow(/mqtt version package.json pins/);
  });
});
