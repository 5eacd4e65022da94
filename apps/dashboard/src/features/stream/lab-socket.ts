import { type LabTile, parseLabMessage, RECONNECT_DELAY_MS } from '@furnace/contracts';
import { labIssue } from '@furnace/api-client';
import { useEffect, useState } from 'react';
import { unwrap } from '../../api/errors';
import type { SocketLike } from './live-socket';

/** The close code a stopping server sends (RFC 6455 "Service Restart"): reconnect at once. */
const SERVICE_RESTART_CLOSE_CODE = 1012;
const RESTART_RECONNECT_MS = 250;

export interface LabState {
  /** Every furnace's tile, in the server's order (by code); null before the first LAB message. */
  tiles: LabTile[] | null;
  /** The server's clock minus this browser's (ms), from the newest message: the tiles' ages are reckoned with it. */
  clockOffsetMs: number;
  connected: boolean;
}

interface LabSocketOptions {
  url: () => Promise<string>;
  onState: (state: LabState) => void;
  createSocket?: (url: string) => SocketLike;
  reconnectMs?: number;
}

/** The lab overview's stream URL: same host, ws(s) after the page's protocol, with a single-use ticket. */
function labStreamUrl(location: Pick<Location, 'protocol' | 'host'>, ticket: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/v1/lab/stream?ticket=${encodeURIComponent(ticket)}`;
}

/**
 * The lab overview's socket (docs/behaviour.md §18): LAB replaces every tile, TILE one; after any close it
 * connects again with a new ticket (at once when the server said it was restarting, else after 5 s) and the
 * LAB message that opens the new stream puts every tile right. Returns the function that closes it for good.
 */
export function connectLabSocket(options: LabSocketOptions): () => void {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const reconnectMs = options.reconnectMs ?? RECONNECT_DELAY_MS;
  let state: LabState = { tiles: null, clockOffsetMs: 0, connected: false };
  let socket: SocketLike | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const set = (next: Partial<LabState>) => {
    state = { ...state, ...next };
    options.onState(state);
  };
  const schedule = (delay: number) => {
    if (closed || retry !== null) return;
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, delay);
  };
  const connect = () => {
    options.url().then(
      (url) => {
        if (closed) return;
        const ws = createSocket(url);
        socket = ws;
        ws.onopen = () => set({ connected: true });
        ws.onmessage = (event) => {
          if (typeof event.data !== 'string') return;
          const parsed = parseLabMessage(event.data);
          if (!parsed.ok) return;
          const message = parsed.value;
          const clockOffsetMs = Date.parse(message.data.server_time) - Date.now();
          if (message.event === 'LAB') return set({ tiles: message.data.tiles, clockOffsetMs, connected: true });
          const tile = message.data.tile;
          const tiles = state.tiles ?? [];
          const at = tiles.findIndex((t) => t.furnace.id === tile.furnace.id);
          set({
            tiles: at === -1 ? [...tiles, tile] : tiles.map((t, i) => (i === at ? tile : t)),
            clockOffsetMs,
          });
        };
        ws.onerror = () => undefined;
        ws.onclose = (event) => {
          ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
          if (socket === ws) socket = null;
          set({ connected: false });
          const restarting = (event as { code?: unknown } | null)?.code === SERVICE_RESTART_CLOSE_CODE;
          schedule(restarting ? Math.random() * RESTART_RECONNECT_MS : reconnectMs);
        };
      },
      () => schedule(reconnectMs),
    );
  };
  connect();
  return () => {
    closed = true;
    if (retry !== null) clearTimeout(retry);
    const ws = socket;
    socket = null;
    if (ws) {
      ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
      ws.close();
    }
  };
}

/** The lab overview's tiles, live, for as long as the component is mounted. */
export function useLabStream(): LabState {
  const [state, setState] = useState<LabState>({ tiles: null, clockOffsetMs: 0, connected: false });
  useEffect(
    () =>
      connectLabSocket({
        url: async () => labStreamUrl(window.location, (await unwrap(labIssue())).ticket),
        onState: setState,
      }),
    [],
  );
  return state;
}
