import {
  type AlarmView,
  CLIENT_STATUS_MESSAGE,
  type CriteriaView,
  type DaqPayload,
  HEARTBEAT_INTERVAL_MS,
  parseLiveMessage,
  RECONNECT_DELAY_MS,
  type UpdateKind,
} from '@furnace/contracts';

/** The close code a stopping server sends its viewers (RFC 6455 "Service Restart"). */
const SERVICE_RESTART_CLOSE_CODE = 1012;
/** Reconnect delay after a 1012 close: at once, spread over this many ms. */
const RESTART_RECONNECT_MS = 250;

/** Connection status of docs/behaviour.md §4: 0 disconnected, 1 connected without data, 2 receiving data. */
export type ConnectionStatus = 0 | 1 | 2;

/** What the client needs of a WebSocket (the browser's, or a fake in tests). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface LiveSocketOptions {
  /**
   * The stream URL, asked again on every (re)connect: it carries a single-use ticket bought just
   * before (a promise), or for tests a fixed URL. A rejected promise counts as a refused connection.
   */
  url: () => string | Promise<string>;
  onStatus: (status: ConnectionStatus) => void;
  onFrame: (frame: DaqPayload) => void;
  onUpdate: (kind: UpdateKind) => void;
  /**
   * A CRITERIA message: the criteria the server keeps for the research (staff get the lab's, a
   * client those of the observations visible to clients). Sent once after the stream opens and again
   * whenever they change; optional, a caller that shows no criteria ignores them.
   */
  onCriteria?: (view: CriteriaView) => void;
  /** An ALARM message (staff's streams only): an alarm of the research raised, acknowledged or cleared. */
  onAlarm?: (alarm: AlarmView) => void;
  /**
   * The socket closed without ever opening (refused upgrade, server down), or its URL could not be
   * had (`error`: why, e.g. the ticket request's 403).
   */
  onRefused?: (error?: unknown) => void;
  createSocket?: (url: string) => SocketLike;
  heartbeatMs?: number;
  reconnectMs?: number;
  /** After a close with code 1012 (the server is restarting): reconnect within this (random, so viewers spread out). */
  restartReconnectMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

export interface LiveSocket {
  status(): ConnectionStatus;
  /** Drops the current connection (if any) and connects again at once. */
  reconnect(): void;
  /** Closes for good: no reconnect. */
  close(): void;
}

/**
 * The live stream URL: same host, ws(s) after the page's protocol, with a single-use ticket (valid
 * 30 s) rather than a token or a code, which would live on in proxies' logs and the browser's history.
 */
export function streamUrl(location: Pick<Location, 'protocol' | 'host'>, researchId: string, ticket: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/v1/research/dane/stream/${encodeURIComponent(researchId)}?ticket=${encodeURIComponent(ticket)}`;
}

/**
 * The live WebSocket client (docs/behaviour.md §7): sends STATUS on open and every heartbeat, parses each server
 * message (DATA, STATUS, UPDATE, CRITERIA), reconnects a while after any close (at once after 1012: the server is restarting). Status (docs/behaviour.md §4): 0 on close or error, 1 on open or on
 * STATUS, 2 on DATA. A STATUS reply that arrives while frames are flowing (one came within the last
 * heartbeat) keeps 2: the indicator means "receiving data", and it would otherwise blink yellow every
 * five seconds of a running test.
 */
export function connectLiveSocket(options: LiveSocketOptions): LiveSocket {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS;
  const reconnectMs = options.reconnectMs ?? RECONNECT_DELAY_MS;
  const restartReconnectMs = options.restartReconnectMs ?? RESTART_RECONNECT_MS;
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const log = options.log ?? ((message: string, detail?: unknown) => console.warn(message, detail ?? ''));

  let socket: SocketLike | null = null;
  let status: ConnectionStatus = 0;
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let lastDataAt = Number.NEGATIVE_INFINITY;

  const setStatus = (next: ConnectionStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus(next);
  };

  const stopTimers = () => {
    if (heartbeat !== null) clearInterval(heartbeat);
    if (retry !== null) clearTimeout(retry);
    heartbeat = null;
    retry = null;
  };

  const send = (ws: SocketLike) => {
    try {
      ws.send(CLIENT_STATUS_MESSAGE);
    } catch (error) {
      log('Live stream: STATUS not sent', error);
    }
  };

  const detach = (ws: SocketLike) => {
    ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
  };

  /** Counts connection attempts, so that a URL that arrives after a newer attempt began is dropped. */
  let attempt = 0;

  const connect = () => {
    retry = null;
    if (closed) return;
    const mine = ++attempt;
    let url: string | Promise<string>;
    try {
      url = options.url();
    } catch (error) {
      return failed(error, false);
    }
    if (typeof url === 'string') return open(url);
    url.then(
      (resolved) => {
        if (!closed && mine === attempt) open(resolved);
      },
      (error: unknown) => {
        if (!closed && mine === attempt) failed(error, true);
      },
    );
  };

  const failed = (error: unknown, refused: boolean) => {
    log('Live stream: cannot connect', error);
    setStatus(0);
    if (refused) options.onRefused?.(error);
    scheduleReconnect();
  };

  const open = (url: string) => {
    let opened = false;
    let ws: SocketLike;
    try {
      ws = createSocket(url);
    } catch (error) {
      return failed(error, false);
    }
    socket = ws;
    ws.onopen = () => {
      opened = true;
      setStatus(1);
      send(ws);
      heartbeat = setInterval(() => send(ws), heartbeatMs);
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      const parsed = parseLiveMessage(event.data);
      if (!parsed.ok) {
        log(`Live stream: message ignored (${parsed.error})`);
        return;
      }
      const message = parsed.value;
      switch (message.event) {
        case 'DATA':
          lastDataAt = Date.now();
          setStatus(2);
          options.onFrame(message.data);
          break;
        case 'STATUS':
          if (status !== 2 || Date.now() - lastDataAt > heartbeatMs) setStatus(1);
          break;
        case 'UPDATE':
          options.onUpdate(message.data);
          break;
        case 'CRITERIA':
          options.onCriteria?.(message.data);
          break;
        case 'ALARM':
          options.onAlarm?.(message.data);
          break;
      }
    };
    ws.onerror = (event) => {
      log('Live stream: socket error', event);
      setStatus(0);
    };
    ws.onclose = (event) => {
      detach(ws);
      if (socket === ws) socket = null;
      if (heartbeat !== null) clearInterval(heartbeat);
      heartbeat = null;
      setStatus(0);
      if (!opened) options.onRefused?.();
      // The instance is stopping: another one behind the proxy takes the viewer now, not in 5 s.
      const restarting = (event as { code?: unknown } | null)?.code === SERVICE_RESTART_CLOSE_CODE;
      scheduleReconnect(restarting ? Math.random() * restartReconnectMs : reconnectMs);
    };
  };

  const scheduleReconnect = (delay = reconnectMs) => {
    if (closed || retry !== null) return;
    retry = setTimeout(connect, delay);
  };

  const drop = () => {
    stopTimers();
    // A ticket still being bought is for a connection nobody wants any more.
    attempt++;
    const ws = socket;
    socket = null;
    if (ws) {
      detach(ws);
      try {
        ws.close();
      } catch {
        // Already closing.
      }
    }
    setStatus(0);
  };

  connect();

  return {
    status: () => status,
    reconnect() {
      if (closed) return;
      drop();
      connect();
    },
    close() {
      closed = true;
      drop();
    },
  };
}
