import request from 'supertest';
import { connectViewer, type TestViewer } from '@furnace/testing';

/* What the security tests of the live stream share: a viewer whose closing is awaited, tickets. */

/** The close code of a stream whose access ended. */
export const ACCESS_ENDED = 4401;
/** One heartbeat: the longest a revoked stream may stay open. */
const HEARTBEAT_MS = 5_000;

export interface Watched {
  viewer: TestViewer;
  closed: Promise<{ code: number; reason: string; at: number }>;
}

export async function watch(url: string, headers?: Record<string, string>): Promise<Watched> {
  const viewer = await connectViewer(url, { headers });
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    viewer.ws.once('close', (code: number, reason: Buffer) =>
      resolve({ code, reason: reason.toString(), at: Date.now() }),
    ),
  );
  return { viewer, closed };
}

/** Resolves with how the stream closed; fails if it stays open longer than one heartbeat after `since`. */
export async function closedWithin(w: Watched, since: number): Promise<{ code: number; reason: string }> {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('stream still open after one heartbeat')), HEARTBEAT_MS + 500).unref(),
  );
  const closed = await Promise.race([w.closed, timeout]);
  expect(closed.at - since).toBeLessThanOrEqual(HEARTBEAT_MS);
  return closed;
}

export const dataTimes = (v: TestViewer) => v.times;

export async function ticketFor(
  api: { http: ReturnType<typeof request> },
  researchId: string,
  token: string,
): Promise<string> {
  const res = await api.http
    .post(`/api/v1/research/${researchId}/stream-ticket`)
    .set({ Authorization: `Bearer ${token}` });
  if (res.status !== 200) throw new Error(`ticket refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.ticket as string;
}
