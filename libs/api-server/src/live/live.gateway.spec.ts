import type { Writable } from 'node:stream';
import WebSocket from 'ws';
import { textFrame } from './live.gateway';

/** ws's frame parser (WebSocket.Receiver): exported by the package, left out of @types/ws. */
const { Receiver } = WebSocket as unknown as { Receiver: new (options: { isServer: boolean }) => Writable };

/** What a browser's WebSocket (here `ws`'s own client-side parser) reads from the bytes. */
function decode(bytes: Buffer): Promise<{ text: string; isBinary: boolean }[]> {
  return new Promise((resolve, reject) => {
    const messages: { text: string; isBinary: boolean }[] = [];
    const receiver = new Receiver({ isServer: false });
    receiver.on('message', (data: Buffer, isBinary: boolean) =>
      messages.push({ text: data.toString('utf8'), isBinary }),
    );
    receiver.on('error', reject);
    receiver.write(bytes, () => resolve(messages));
  });
}

describe('textFrame (the live stream’s WebSocket frames, built once by ws’s Sender.frame)', () => {
  // 125/126 and 65 535/65 536: where the 7-bit, 16-bit and 64-bit length forms change.
  it.each([0, 1, 125, 126, 127, 65_535, 65_536, 200_000])(
    'is one final text frame a client reads back whole: %i bytes',
    async (length) => {
      const text = 'ż'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
      const data = Buffer.from(text, 'utf8');
      expect(data.length).toBe(length);
      expect(await decode(textFrame(data))).toEqual([{ text, isBinary: false }]);
    },
  );

  it('frames several messages back to back as a client receives them on one socket', async () => {
    const a = textFrame(Buffer.from('{"type":"DATA","time":1}'));
    const b = textFrame(Buffer.from('{"type":"DATA","time":2}'));
    expect(await decode(Buffer.concat([a, b]))).toEqual([
      { text: '{"type":"DATA","time":1}', isBinary: false },
      { text: '{"type":"DATA","time":2}', isBinary: false },
    ]);
  });

  it('builds the frame of a message once for all its viewers, and a new one for the next message', () => {
    const message = Buffer.from('{"type":"DATA"}');
    const first = textFrame(message);
    expect(textFrame(message)).toBe(first);
    const next = textFrame(Buffer.from('{"type":"DATA"}'));
    expect(next).not.toBe(first);
    expect(next.equals(first)).toBe(true);
  });
});
