import type { SocketLike } from '../live-socket';

/** A WebSocket stand-in driven by the test: open(), receive(), drop(). */
export class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  static latest(): FakeSocket {
    const socket = FakeSocket.all.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  readonly sent: string[] = [];
  closed = false;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  send(data: string): void {
    this.sent.push(data);
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.onopen?.({});
  }

  receive(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  /** The server (or the network) ends the connection; `code` is the close frame's (1006: none). */
  drop(code = 1006): void {
    this.closed = true;
    this.onclose?.({ code });
  }

  fail(): void {
    this.onerror?.({});
    this.drop();
  }
}
