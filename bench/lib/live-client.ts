import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import WebSocket from 'ws';

/*
 * A client opening the live view of a research with their invitation code, as the dashboard does it,
 * through the real HTTP API and live stream (bench/join.ts, in the benchmark's process for one client and
 * in bench/join-crowd.ts for a crowd). Every response is read as the browser gets it (br/gzip) and its
 * bytes on the wire are counted. A request's time ends with its last byte: decoding it is the browser's
 * own work, on its own machine (here it is done on zlib's threads, so a crowd's process does not hold
 * the other clients' responses while it decodes one).
 */

const brotliAsync = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

export interface OpenedView {
  /** From the first request until the live view has what it shows (the stream's CRITERIA), ms. */
  totalMs: number;
  /** Response bytes on the wire (headers and compressed bodies), the stream's messages included. */
  bytes: number;
  /** Each request's duration, ms, by name. */
  requests: { name: string; ms: number; status: number }[];
  /** The request that failed (status or error), when one did. */
  failed: string | null;
}

/**
 * 'new': the dashboard of today: the code exchange, GET …/live-view (the research, its links, configs,
 * markers, observations, exclusions and the curves' history in one answer, a stream ticket in its headers), then the
 * photo and the stream until its first CRITERIA. 'separate': the dashboard before the live-view request:
 * each of those read by a request of its own (the research, links, configs, markers, photo,
 * observations, exclusions, the curves' history of 750 points, a stream ticket). 'old': as 'separate',
 * from before the server kept the criteria: GET /criteria and the history of every thermocouple (1 000
 * points) for the browser's engine instead of waiting for CRITERIA.
 */
export type ClientKind = 'new' | 'separate' | 'old';

interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  wire: number;
  /** When its last byte arrived (performance.now()). */
  endedAt: number;
}

function send(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: { 'Accept-Encoding': 'br, gzip', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let wire = Object.entries(res.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 20);
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          wire += c.length;
        });
        res.on('end', () => {
          const endedAt = performance.now();
          // Counted on the wire as sent; read as the browser reads it.
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const decoded =
            encoding === 'br' ? brotliAsync(raw) : encoding === 'gzip' ? gunzipAsync(raw) : Promise.resolve(raw);
          decoded.then(
            (body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, wire, endedAt }),
            reject,
          );
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error('timed out after 120 s')));
    req.on('error', reject);
    req.end(body);
  });
}

export async function openLiveView(
  apiUrl: string,
  researchId: string,
  code: string,
  kind: ClientKind = 'new',
): Promise<OpenedView> {
  const base = new URL(apiUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const started = performance.now();
  const out: OpenedView = { totalMs: 0, bytes: 0, requests: [], failed: null };
  const call = async (
    name: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Response> => {
    const t = performance.now();
    let res: Response;
    try {
      res = await send(agent, base, method, `/api/v1${path}`, headers, body);
    } catch (error) {
      out.failed ??= `${name}: ${(error as Error).message}`;
      throw error;
    }
    out.requests.push({ name, ms: res.endedAt - t, status: res.status });
    out.bytes += res.wire;
    if (res.status !== 200) {
      out.failed ??= `${name}: HTTP ${res.status}`;
      throw new Error(out.failed);
    }
    return res;
  };
  const json = (r: Response) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
  try {
    const token = json(
      await call('viewer-token', 'POST', `/research/${researchId}/viewer-token`, {}, JSON.stringify({ code })),
    ).access_token as string;
    const auth = { Authorization: `Bearer ${token}` };
    const r = `/research/${researchId}`;
    if (kind === 'new') {
      const answer = await call('live-view', 'GET', `${r}/live-view?points=750`, auth);
      const view = json(answer);
      const photos = (view.configs as { id: string }[]).map((c) =>
        call('photo', 'GET', `/research/thermo/${c.id}/image`, auth),
      );
      // The caller's own ticket comes in the headers (the body is the audience's).
      await openStream({ ticket: String(answer.headers['stream-ticket']) }, photos);
      return out;
    }
    const [, , configs] = await Promise.all([
      call('research', 'GET', r, auth),
      call('urls', 'GET', `${r}/urls`, auth),
      call('thermo', 'GET', `${r}/thermo`, auth),
      call('markers', 'GET', `${r}/thermo/coords`, auth),
      call('observations', 'GET', `${r}/observations`, auth),
      call('exclusions', 'GET', `${r}/exclusions`, auth),
    ]);
    const configList = (json(configs).data as { id: string }[]) ?? [];
    const reads: Promise<unknown>[] = [
      ...configList.map((c) => call('photo', 'GET', `/research/thermo/${c.id}/image`, auth)),
      call('history', 'GET', `${r}/history?points=750`, auth),
    ];
    if (kind === 'old') {
      const ids = Array.from({ length: 300 }, (_, i) => i + 1).join(',');
      reads.push(
        call('criteria', 'GET', `${r}/criteria`, auth),
        call('history (every thermocouple)', 'GET', `${r}/history?points=1000&thermo_ids=${ids}`, auth),
      );
    }
    const ticketing = call('stream-ticket', 'POST', `${r}/stream-ticket`, auth, '{}');
    const [ticket] = (await Promise.all([ticketing, ...reads])) as [Response];
    await openStream(json(ticket) as { ticket: string }, []);
  } catch (error) {
    // A request's own failure is recorded as it happens; anything else here.
    out.failed ??= (error as Error).message;
  } finally {
    agent.destroy();
    out.totalMs = performance.now() - started;
  }
  return out;

  /** The stream until its first CRITERIA ('old': until it opened), while `alongside` (the photos) are read. */
  async function openStream(issued: { ticket: string }, alongside: Promise<unknown>[]): Promise<void> {
    const t = performance.now();
    const stream = `${apiUrl.replace(/^http/, 'ws')}/api/v1/research/dane/stream/${researchId}?ticket=${encodeURIComponent(issued.ticket)}`;
    const opened = new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(stream);
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error('stream: no CRITERIA within 120 s'));
      }, 120_000);
      const done = (error?: Error) => {
        clearTimeout(timer);
        ws.close();
        if (error) reject(error);
        else resolve();
      };
      ws.on('open', () => {
        if (kind === 'old') done();
      });
      ws.on('message', (data: Buffer) => {
        out.bytes += data.length + 4;
        if (data.toString('utf8', 0, 20).startsWith('{"event":"CRITERIA"')) done();
      });
      ws.on('unexpected-response', (_req, res) => done(new Error(`stream: HTTP ${res.statusCode}`)));
      ws.on('error', (e) => done(e));
    }).then(
      () => out.requests.push({ name: 'stream', ms: performance.now() - t, status: 101 }),
      (error: Error) => {
        out.failed ??= error.message;
        throw error;
      },
    );
    await Promise.all([opened, ...alongside]);
  }
}
