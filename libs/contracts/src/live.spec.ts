import {
  BUS_CHANNEL_PATTERN,
  HEARTBEAT_INTERVAL_MS,
  RECONNECT_DELAY_MS,
  UPDATE_KINDS,
  busToLiveMessage,
  encodeBusMessage,
  encodeLiveMessage,
  isClientStatusMessage,
  parseBusMessage,
  parseLiveMessage,
  parseResearchChannel,
  researchChannel,
  type BusMessage,
  type LiveServerMessage,
} from './live';

const ID = '0b5e9d2c-4f1a-4c8e-9d3b-7a6f5e4d3c2b';

describe('live socket messages', () => {
  it('uses the intervals of docs/behaviour.md §9', () => {
    expect(HEARTBEAT_INTERVAL_MS).toBe(5000);
    expect(RECONNECT_DELAY_MS).toBe(5000);
    expect(UPDATE_KINDS).toEqual(['RESEARCH', 'LIVESTREAM', 'THERMOCOUPLE', 'OBSERVATION']);
  });

  it('recognises the client heartbeat', () => {
    expect(isClientStatusMessage('STATUS')).toBe(true);
    expect(isClientStatusMessage('STATUS\n')).toBe(true);
    expect(isClientStatusMessage('status')).toBe(false);
    expect(isClientStatusMessage('{"event":"STATUS"}')).toBe(false);
  });

  it.each<LiveServerMessage>([
    { event: 'STATUS', data: { research_id: ID, server_time: '2025-03-14T09:26:53.589Z', last_time: 754 } },
    { event: 'STATUS', data: { research_id: ID, server_time: '2025-03-14T10:26:53+01:00', last_time: null } },
    { event: 'DATA', data: { time: 754, pk: 812.4, thermocouples_out: [21.4, null] } },
    { event: 'UPDATE', data: 'THERMOCOUPLE' },
  ])('round-trips $event', (message) => {
    expect(parseLiveMessage(encodeLiveMessage(message))).toEqual({ ok: true, value: message });
  });

  it.each([
    ['not json', 'message is not valid JSON'],
    ['{"event":"PING","data":1}', "event: Invalid discriminator value. Expected 'STATUS' | 'DATA' | 'UPDATE'"],
    [
      '{"event":"UPDATE","data":"USERS"}',
      'data: Invalid option: expected one of "RESEARCH"|"LIVESTREAM"|"THERMOCOUPLE"',
    ],
    ['{"event":"DATA","data":{"time":1,"pk":"hot"}}', 'data.pk: expected number or null, got string'],
    [
      '{"event":"STATUS","data":{"research_id":"x","server_time":"2025-03-14T09:26:53Z","last_time":null}}',
      'data.research_id: expected a research id (UUID)',
    ],
  ])('refuses %s', (text, error) => {
    expect(parseLiveMessage(text)).toEqual({ ok: false, error: expect.stringContaining(error) });
  });
});

describe('bus', () => {
  it('names one channel per research', () => {
    expect(researchChannel(ID)).toBe(`research:${ID}`);
    expect(researchChannel(ID.toUpperCase())).toBe(`research:${ID}`);
    expect(parseResearchChannel(`research:${ID}`)).toBe(ID);
    expect(parseResearchChannel('research:abc')).toBeNull();
    expect(parseResearchChannel(`other:${ID}`)).toBeNull();
    expect(BUS_CHANNEL_PATTERN).toBe('research:*');
    expect(() => researchChannel('*')).toThrow(TypeError);
  });

  const frame: BusMessage = { type: 'frame', research_id: ID, payload: { time: 10, thermocouples_out: [20, 21] } };
  const update: BusMessage = { type: 'update', research_id: ID, kind: 'LIVESTREAM' };

  it('round-trips frames and updates, from text or bytes', () => {
    expect(parseBusMessage(encodeBusMessage(frame))).toEqual({ ok: true, value: frame });
    expect(parseBusMessage(new TextEncoder().encode(encodeBusMessage(update)))).toEqual({ ok: true, value: update });
  });

  it('refuses what another process must not have sent', () => {
    expect(parseBusMessage('{"type":"frame","research_id":"' + ID + '","payload":{"time":-3605}}')).toEqual({
      ok: false,
      error: 'payload.time: -3605 is outside the plausible range -3600..2592000 s',
    });
    expect(parseBusMessage(`{"type":"update","research_id":"${ID}"}`).ok).toBe(false);
    expect(parseBusMessage('{"type":"delete"}').ok).toBe(false);
    expect(parseBusMessage(new Uint8Array([0xc3]))).toEqual({ ok: false, error: 'message is not valid UTF-8' });
  });

  it('turns bus messages into socket messages', () => {
    expect(busToLiveMessage(frame)).toEqual({ event: 'DATA', data: { time: 10, thermocouples_out: [20, 21] } });
    expect(busToLiveMessage(update)).toEqual({ event: 'UPDATE', data: 'LIVESTREAM' });
  });
});
