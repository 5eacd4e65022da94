import {
  DAQ_TOPIC_FILTER,
  MAX_CHANNELS,
  MAX_DAQ_PAYLOAD_BYTES,
  daqPayloadSchema,
  daqTopic,
  parseDaqMessage,
  parseDaqTopic,
  type DaqParseResult,
} from './daq';

const ID = '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function rejected(result: DaqParseResult): { reason: string; message: string } {
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.payload)}`);
  return { reason: result.reason, message: result.message };
}

describe('DAQ topics', () => {
  it('builds and parses furnace/{id}/data', () => {
    expect(daqTopic(ID)).toBe(`furnace/${ID}/data`);
    expect(parseDaqTopic(`furnace/${ID}/data`)).toBe(ID);
    expect(DAQ_TOPIC_FILTER).toBe('furnace/+/data');
  });

  it('lowercases ids so that publisher and subscriber agree', () => {
    expect(daqTopic(ID.toUpperCase())).toBe(`furnace/${ID}/data`);
    expect(parseDaqTopic(`furnace/${ID.toUpperCase()}/data`)).toBe(ID);
  });

  it.each([
    'furnace/123/data',
    `furnace/${ID}/status`,
    `furnace/${ID}/data/extra`,
    `x/furnace/${ID}/data`,
    `$share/ingest/furnace/${ID}/data`,
    'furnace/+/data',
    `furnace/${ID}x/data`,
    '',
  ])('refuses %j', (topic) => {
    expect(parseDaqTopic(topic)).toBeNull();
  });

  it('will not build a topic from something that is not a UUID', () => {
    expect(() => daqTopic('+')).toThrow(TypeError);
    expect(() => daqTopic(`${ID}/#`)).toThrow(TypeError);
  });
});

describe('parseDaqMessage', () => {
  const full = {
    time: 754.0,
    radiance: 1.8,
    pressure: 14.2,
    pk: 812.4,
    thermocouples_out: [21.4, 22.0, null, 180.5],
    ts: '2025-03-14T09:26:53.589+01:00',
  };

  it('accepts the payload of the DAQ contract, from bytes or text', () => {
    expect(parseDaqMessage(bytes(JSON.stringify(full)))).toEqual({ ok: true, payload: full });
    expect(parseDaqMessage(JSON.stringify(full))).toEqual({ ok: true, payload: full });
  });

  it('needs only time; readings may be null', () => {
    expect(parseDaqMessage('{"time":0}')).toEqual({ ok: true, payload: { time: 0 } });
    expect(parseDaqMessage('{"time":1,"radiance":null,"pressure":null,"pk":null}')).toEqual({
      ok: true,
      payload: { time: 1, radiance: null, pressure: null, pk: null },
    });
  });

  it('strips unknown fields, including __proto__', () => {
    const result = parseDaqMessage(
      '{"time":5,"firmware":"2.1","nested":{"a":[1,{"b":2}]},"__proto__":{"polluted":true}}',
    );
    expect(result).toEqual({ ok: true, payload: { time: 5 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('tolerates a UTF-8 byte order mark', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{"time":2}')]);
    expect(parseDaqMessage(withBom)).toEqual({ ok: true, payload: { time: 2 } });
  });

  it.each([
    ['', 'malformed_json'],
    ['{"time":', 'malformed_json'],
    ["{'time':1}", 'malformed_json'],
    ['{"time":NaN}', 'malformed_json'],
    ['{"time":1,"pk":Infinity}', 'malformed_json'],
  ])('refuses text that is not JSON: %j', (text, reason) => {
    expect(rejected(parseDaqMessage(text)).reason).toBe(reason);
  });

  it('refuses bytes that are not UTF-8', () => {
    const result = rejected(parseDaqMessage(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])));
    expect(result).toEqual({ reason: 'malformed_json', message: 'payload is not valid UTF-8' });
  });

  it.each([
    ['null', 'payload: expected a JSON object, got null'],
    ['[1,2,3]', 'payload: expected a JSON object, got array'],
    ['"STATUS"', 'payload: expected a JSON object, got string'],
    ['{}', 'time: required'],
    ['{"time":"754"}', 'time: expected number, got string'],
    ['{"time":-3600.5}', 'time: -3600.5 is outside the plausible range -3600..2592000 s'],
    ['{"time":1,"pk":"812.4"}', 'pk: expected number or null, got string'],
    ['{"time":1,"radiance":{"value":1.8}}', 'radiance: expected number or null, got object'],
    ['{"time":1,"pressure":[14.2]}', 'pressure: expected number or null, got array'],
    ['{"time":1,"pressure":true}', 'pressure: expected number or null, got boolean'],
    ['{"time":1,"thermocouples_out":[1,2,3,"21.4"]}', 'thermocouples_out[3]: expected number or null, got string'],
    ['{"time":1,"thermocouples_out":[1,[2,3]]}', 'thermocouples_out[1]: expected number or null, got array'],
    ['{"time":1,"thermocouples_out":[{"t":[{"x":1}]}]}', 'thermocouples_out[0]: expected number or null, got object'],
    ['{"time":1,"thermocouples_out":{"0":21.4}}', 'thermocouples_out: expected array, got object'],
    ['{"time":1,"thermocouples_out":null}', 'thermocouples_out: expected array, got null'],
    ['{"time":1,"faults":[0]}', 'faults[0]: Too small: expected number to be >=1'],
    ['{"time":1,"pk":3000.5}', 'pk: 3000.5 is outside the plausible range -273.15..3000 °C'],
    ['{"time":1,"radiance":20000}', 'radiance: 20000 is outside the plausible range -100..10000 kW/m²'],
    ['{"time":1,"ts":"2025-03-14 09:26"}', 'ts: "2025-03-14 09:26" is not an ISO 8601 date-time with offset'],
    ['{"time":1,"ts":"2025-03-14T09:26:53"}', 'ts: "2025-03-14T09:26:53" is not an ISO 8601 date-time with offset'],
    ['{"time":1,"ts":1710408413}', 'ts: expected ISO 8601 date-time string, got number'],
  ])('refuses %s as invalid_payload naming the field', (text, message) => {
    expect(rejected(parseDaqMessage(text))).toEqual({ reason: 'invalid_payload', message });
  });

  it('keeps a frame with a broken thermocouple: that channel becomes null and is listed in faults', () => {
    const text = '{"time":61,"pk":640.2,"pressure":17,"thermocouples_out":[21.4,3276.7,22.1,-300]}';
    expect(parseDaqMessage(text)).toEqual({
      ok: true,
      payload: { time: 61, pk: 640.2, pressure: 17, thermocouples_out: [21.4, null, 22.1, null], faults: [2, 4] },
    });
  });

  it('keeps faults through a second parse (bus, live socket) and omits them when there are none', () => {
    const first = parseDaqMessage('{"time":1,"thermocouples_out":[3276.7,20]}');
    expect(first.ok && first.payload.faults).toEqual([1]);
    const again = daqPayloadSchema.parse(JSON.parse(JSON.stringify(first.ok && first.payload)));
    expect(again).toEqual({ time: 1, thermocouples_out: [null, 20], faults: [1] });
    expect(daqPayloadSchema.parse({ time: 1, thermocouples_out: [20], faults: [] })).toEqual({
      time: 1,
      thermocouples_out: [20],
    });
  });

  it('accepts frames before ignition down to one hour', () => {
    expect(parseDaqMessage('{"time":-3600,"thermocouples_out":[19.8]}')).toEqual({
      ok: true,
      payload: { time: -3600, thermocouples_out: [19.8] },
    });
  });

  it('accepts the plausibility limits themselves', () => {
    expect(parseDaqMessage('{"time":0,"pk":-273.15,"thermocouples_out":[3000,-273.15]}').ok).toBe(true);
  });

  it('names at most three wrong fields and counts the rest', () => {
    const text = JSON.stringify({ time: 'a', radiance: 'b', pressure: 'c', pk: 'd', thermocouples_out: ['e'] });
    const { reason, message } = rejected(parseDaqMessage(text));
    expect(reason).toBe('invalid_payload');
    expect(message).toBe(
      'time: expected number, got string; radiance: expected number or null, got string; ' +
        'pressure: expected number or null, got string; (+2 more)',
    );
  });

  it('refuses NaN and Infinity handed over by a JS caller', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(daqPayloadSchema.safeParse({ time: bad }).success).toBe(false);
      expect(daqPayloadSchema.safeParse({ time: 1, pk: bad }).success).toBe(false);
      expect(daqPayloadSchema.safeParse({ time: 1, thermocouples_out: [20, bad] }).success).toBe(false);
    }
    const issue = daqPayloadSchema.safeParse({ time: 1, thermocouples_out: [20, Number.NaN] }).error?.issues[0];
    expect(issue?.path).toEqual(['thermocouples_out', 1]);
    expect(issue?.message).toBe('expected number or null, got NaN');
  });

  it(`accepts ${MAX_CHANNELS} channels and refuses one more as too_many_channels`, () => {
    const channels = (n: number) => JSON.stringify({ time: 1, thermocouples_out: Array.from({ length: n }, () => 20) });
    const accepted = parseDaqMessage(channels(MAX_CHANNELS));
    expect(accepted.ok && accepted.payload.thermocouples_out?.length).toBe(MAX_CHANNELS);
    expect(rejected(parseDaqMessage(channels(MAX_CHANNELS + 1)))).toEqual({
      reason: 'too_many_channels',
      message: `thermocouples_out: ${MAX_CHANNELS + 1} channels, at most ${MAX_CHANNELS}`,
    });
    expect(daqPayloadSchema.safeParse(JSON.parse(channels(MAX_CHANNELS + 1))).success).toBe(false);
  });

  it('refuses a payload over 64 KiB before reading it, counting bytes not characters', () => {
    expect(MAX_DAQ_PAYLOAD_BYTES).toBe(65536);
    const padded = (pad: string) => `{"time":1,"note":"${pad}"}`;
    const overhead = padded('').length;
    expect(parseDaqMessage(padded('x'.repeat(MAX_DAQ_PAYLOAD_BYTES - overhead))).ok).toBe(true);
    expect(rejected(parseDaqMessage(padded('x'.repeat(MAX_DAQ_PAYLOAD_BYTES - overhead + 1))))).toEqual({
      reason: 'too_large',
      message: `payload is ${MAX_DAQ_PAYLOAD_BYTES + 1} bytes, at most ${MAX_DAQ_PAYLOAD_BYTES}`,
    });
    // 'ś' is one UTF-16 unit but two UTF-8 bytes.
    const polish = padded('ś'.repeat(MAX_DAQ_PAYLOAD_BYTES / 2));
    expect(polish.length).toBeLessThan(MAX_DAQ_PAYLOAD_BYTES);
    expect(rejected(parseDaqMessage(polish)).reason).toBe('too_large');
    expect(rejected(parseDaqMessage(bytes(polish))).reason).toBe('too_large');
  });

  it('survives deeply nested garbage without throwing', () => {
    const deep = '['.repeat(30000) + ']'.repeat(30000);
    expect(rejected(parseDaqMessage(deep)).reason).toBe('invalid_payload');
    const deepField = `{"time":1,"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    expect(parseDaqMessage(deepField)).toEqual({ ok: true, payload: { time: 1 } });
  });
});
