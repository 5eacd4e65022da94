import WebSocket from 'ws';
import type { LabServerMessage, LabTile } from '@furnace/contracts';

/*
 * The lab overview's stream as a staff browser sees it (docs/behaviour.md §18): a WebSocket on /api/v1/lab/stream
 * and every tile as its messages leave it, by furnace code.
 */

/** The overview stream's URL on the API at `api.url` (http://host:port). */
export function labUrl(api: { url: string }, query: Record<string, string> = {}): string {
  const url = new URL('/api/v1/lab/stream', api.url.replace(/^http/, 'ws'));
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

export interface LabViewer {
  ws: WebSocket;
  /** The newest tile of each furnace, by code. */
  tiles: Map<string, LabTile>;
  messages: LabServerMessage[];
  /** The close code, once the server closed the socket. */
  closed: number | null;
}

/** Opens an overview socket; resolves once open. */
export async function openLab(url: string): Promise<LabViewer> {
  const ws = new WebSocket(url);
  const lab: LabViewer = { ws, tiles: new Map(), messages: [], closed: null };
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as LabServerMessage;
    lab.messages.push(message);
    if (message.event === 'LAB') {
      lab.tiles.clear();
      for (const tile of message.data.tiles) lab.tiles.set(tile.furnace.code, tile);
    } else lab.tiles.set(message.data.tile.furnace.code, message.data.tile);
  });
  ws.on('close', (code) => (lab.closed = code));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return lab;
}
