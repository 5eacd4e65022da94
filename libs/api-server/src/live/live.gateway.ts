import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { isResearchId, normaliseResearchId } from '@furnace/contracts';
import type { ApiConfig } from '@furnace/config';
import { bearerToken } from '../auth/caller.service';
import { CodeAttempts } from '../auth/code-attempts';
import { tooManyAttempts } from '../auth/login-throttler.guard';
import { type Revocation, Revocations } from '../auth/revocations';
import { API_PREFIX } from '../core/http';
import { ShutdownGate } from '../core/shutdown-gate';
import { APP_CONFIG } from '../core/tokens';
import { httpError, LiveAccessService, type StreamAccess } from './live-access.service';
import { liveMetrics } from './live.metrics';
import { type LiveLease, LiveService } from './live.service';

export const STREAM_PATH = new RegExp(`^/${API_PREFIX}/research/dane/stream/([^/]+)/?$`);
/** A viewer that sends nothing (STATUS every 5 s) and answers no ping for this long is gone. */
const IDLE_MS = 30_000;
/** Close code of a stream whose access was revoked or expired (4000–4999: the application's own). */
const CLOSE_ACCESS_ENDED = 4401;
/** setTimeout's largest delay; a longer wait is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Close code for viewers when the process stops (RFC 6455 "Service Restart"): the dashboard reconnects at once. */
const CLOSE_SERVICE_RESTART = 1012;
/** How long stopping waits for viewers to answer the close before dropping their connections. */
const CLOSE_GRACE_MS = 1_000;

/**
 * The WebSocket endpoint /api/v1/research/dane/stream/{researchId}: a `ws` server attached to the
 * HTTP server's upgrade event (Nest's ws adapter cannot route path parameters). The caller is
 * authorised before the handshake completes: a refusal is a plain HTTP 401/403/404 and nothing
 * is streamed. Transport only; the rules are in LiveAccessService and LiveService.
 */
@Injectable()
export class LiveGateway implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Live');
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024,
    perMessageDeflate: false,
    clientTracking: true,
  });
  private server: Server | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly alive = new WeakMap<WebSocket, boolean>();
  /** Every open stream and whose access it rests on: a revocation closes the ones it names. */
  private readonly streams = new Map<WebSocket, StreamAccess>();
  /** Streams open (or being opened) on this instance per credential (`user:{id}`, `email:{id}`): LIVE_STREAMS_PER_USER / _CLIENT at most. */
  private readonly perCredential = new Map<string, number>();
  private stopRevocations: (() => Promise<void>) | null = null;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Nothing a client sends may crash the process: an unexpected failure closes that one socket.
    this.upgrade(req, socket, head).catch((error: unknown) => {
      this.logger.error(`Stream upgrade failed: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    });
  };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly live: LiveService,
    private readonly access: LiveAccessService,
    private readonly revocations: Revocations,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
    private readonly gate: ShutdownGate,
    private readonly codeAttempts: CodeAttempts,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Every instance hears every revocation (users, e-mail records) on the bus and closes its own streams.
    this.stopRevocations = await this.revocations.subscribe((r) => this.revoke(r));
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.server.on('upgrade', this.onUpgrade);
    this.heartbeat = setInterval(() => this.checkAlive(), IDLE_MS);
    this.heartbeat.unref();
  }

  async onModuleDestroy(): Promise<void> {
    // No new connection from here on (see ShutdownGate); an upgrade on an open one finds no listener and is closed.
    this.gate.begin();
    this.server?.off('upgrade', this.onUpgrade);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.stopRevocations?.().catch(() => undefined);
    const clients = [...this.wss.clients];
    for (const ws of clients) ws.close(CLOSE_SERVICE_RESTART, 'Server restarting');
    await this.live.closeAll(() => undefined);
    // Viewers answer the close at once; one that does not is dropped rather than holding the stop up.
    await Promise.race([
      Promise.all(
        clients.map((ws) =>
          ws.readyState === WebSocket.CLOSED ? null : new Promise((resolve) => ws.once('close', resolve)),
        ),
      ),
      new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref()),
    ]);
    for (const ws of clients) if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
  }

  onApplicationShutdown(): void {
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // Errors on a socket nobody listens to would crash the process.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://stream.invalid');
    const match = STREAM_PATH.exec(url.pathname);
    if (!match) {
      // Another upgrade listener may own this path; with none, answer rather than leave the socket hanging.
      if (this.server && this.server.listenerCount('upgrade') === 1) refuse(socket, 404, 'Not Found');
      return;
    }
    // A research id needs no percent-decoding: anything else is not one.
    const rawId = match[1]!;
    if (!isResearchId(rawId)) return refuse(socket, 404, 'Research not found');
    const researchId = normaliseResearchId(rawId);
    // A page of another site may not open a stream in its visitor's name (browsers always send Origin
    // on a WebSocket handshake); k6 and scripts send none and pass.
    const origin = req.headers.origin;
    if (origin !== undefined && !this.config.allowedOrigins.includes(origin))
      return refuse(socket, 403, 'Origin not allowed');

    let lease: LiveLease;
    let access: StreamAccess;
    let held: (() => void) | null = null;
    const credentials = {
      ticket: url.searchParams.get('ticket'),
      token: url.searchParams.get('token') ?? bearerToken(req),
      code: url.searchParams.get('code'),
    };
    try {
      // A code is guessable: its attempts count with the REST code exchange's, per client address (auth/code-attempts.ts).
      if (!credentials.ticket && !credentials.token && credentials.code) {
        const wait = await this.codeAttempts.attempt(req);
        if (wait !== null) return refuse(socket, 429, tooManyAttempts(wait), { 'Retry-After': String(wait) });
      }
      access = await this.access.authorize(researchId, credentials);
      held = this.hold(access);
      if (held === null) return refuse(socket, 429, this.tooManyStreams(access));
      lease = await this.live.open(researchId);
    } catch (error) {
      held?.();
      const { status, detail } = httpError(error);
      if (status >= 500) this.logger.error(`Stream of ${researchId} not opened: ${(error as Error).message}`);
      return refuse(socket, status >= 500 ? 503 : status, status >= 500 ? 'Live stream unavailable' : detail);
    }
    const release = held;
    if (socket.destroyed) {
      release();
      return lease.release();
    }
    if (this.gate.isClosing) {
      release();
      lease.release();
      return refuse(socket, 503, 'Live stream unavailable');
    }
    // Also when the handshake itself fails (ws answers 400 and never calls back): release is idempotent.
    socket.once('close', () => {
      release();
      lease.release();
    });
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, socket, lease, access));
  }

  private connected(ws: WebSocket, socket: Duplex, lease: LiveLease, access: StreamAccess): void {
    this.alive.set(ws, true);
    this.streams.set(ws, access);
    const expiry = access.expiresAt ? this.closeAt(ws, access.expiresAt) : null;
    // Staff see the lab's criteria; a client those their visible observations give (docs/behaviour.md §7).
    const audience = access.userId !== null ? 'staff' : 'client';
    const viewer = lease.attach(
      {
        get bufferedAmount() {
          return ws.bufferedAmount;
        },
        // The frame is built once per message for all viewers (see textFrame) and written as it is:
        // ws.send would build a header and write header and data separately for each of them.
        // Control frames (ping, close) still go through ws; its writes and these share the socket in order.
        send: (data) => {
          if (ws.readyState === WebSocket.OPEN) socket.write(textFrame(data));
        },
        terminate: () => ws.terminate(),
      },
      audience,
    );
    ws.on('message', (data: RawData, isBinary: boolean) => {
      this.alive.set(ws, true);
      if (!isBinary) this.live.onClientMessage(viewer, rawToString(data));
    });
    ws.on('pong', () => this.alive.set(ws, true));
    ws.on('close', () => {
      this.streams.delete(ws);
      if (expiry) clearTimeout(expiry.timer);
      lease.release();
    });
    ws.on('error', () => ws.terminate());
  }

  /**
   * Counts one more stream of the access's credential on this instance; null when it already holds its
   * most (LIVE_STREAMS_PER_USER for staff, LIVE_STREAMS_PER_CLIENT for a client's e-mail record, whatever
   * carried it: code, viewer token or ticket). Returns the idempotent release.
   */
  private hold(access: StreamAccess): (() => void) | null {
    const key =
      access.userId !== null ? `user:${access.userId}` : access.emailId !== null ? `email:${access.emailId}` : null;
    if (key === null) return () => undefined;
    const open = this.perCredential.get(key) ?? 0;
    if (open >= (access.userId !== null ? this.config.liveStreamsPerUser : this.config.liveStreamsPerClient))
      return null;
    this.perCredential.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perCredential.get(key) ?? 1) - 1;
      if (left > 0) this.perCredential.set(key, left);
      else this.perCredential.delete(key);
    };
  }

  private tooManyStreams(access: StreamAccess): string {
    const [most, whose] =
      access.userId !== null
        ? [this.config.liveStreamsPerUser, 'staff account']
        : [this.config.liveStreamsPerClient, 'client access'];
    return `Too many live streams open: at most ${most} per ${whose} on this server. Close one and try again.`;
  }

  /** Closes the stream when its credential expires. */
  private closeAt(ws: WebSocket, at: Date): { timer: NodeJS.Timeout } {
    const handle = { timer: undefined as unknown as NodeJS.Timeout };
    const arm = () => {
      const wait = at.getTime() - Date.now();
      if (wait <= 0) return this.end(ws, 'Access expired');
      handle.timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
      handle.timer.unref();
    };
    arm();
    return handle;
  }

  /** Closes every stream of this instance that rests on the revoked access, and voids tickets bought with it. */
  private revoke(revocation: Revocation): void {
    for (const [ws, access] of this.streams) {
      if (
        ('user' in revocation && access.userId === revocation.user) ||
        ('email' in revocation && access.emailId === revocation.email)
      ) {
        this.end(ws, 'Access revoked');
      }
    }
    void this.access
      .forgetTickets(revocation)
      .catch((e: Error) => this.logger.warn(`Tickets of revoked access not dropped: ${e.message}`));
  }

  private end(ws: WebSocket, reason: string): void {
    this.streams.delete(ws);
    liveMetrics.streamsRevoked.inc();
    ws.close(CLOSE_ACCESS_ENDED, reason);
    // A client that does not answer the closing handshake is dropped anyway, and receives nothing meanwhile.
    setTimeout(() => ws.terminate(), 1000).unref();
  }

  private checkAlive(): void {
    for (const ws of this.wss.clients) {
      if (this.alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      ws.ping();
    }
  }
}

/** ws's frame writer (WebSocket.Sender): exported by the package, left out of @types/ws. */
const { Sender } = WebSocket as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean },
    ): Buffer[];
  };
};
/** RFC 6455 §5.2 opcode of a text frame. */
const TEXT = 0x1;

let framedData: Buffer | null = null;
let framed: Buffer | null = null;

/**
 * `data` as one unmasked, final WebSocket text frame (no extensions: the server refuses
 * permessage-deflate), built by ws's own `Sender.frame` and joined into one Buffer, so each viewer's
 * socket gets one write. LiveService sends the same Buffer to every viewer of a message, so the last
 * frame built is kept and reused until the next message.
 */
export function textFrame(data: Buffer): Buffer {
  if (data === framedData) return framed!;
  const frame = Buffer.concat(
    Sender.frame(data, { fin: true, opcode: TEXT, mask: false, readOnly: false, rsv1: false }),
  );
  framedData = data;
  framed = frame;
  return frame;
}

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

const REASONS: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Answers the upgrade request with a plain HTTP error ({"detail": …}, and `headers`) and closes the connection. */
function refuse(socket: Duplex, status: number, detail: string, headers: Record<string, string> = {}): void {
  liveMetrics.upgradesRefused.inc({ status: String(status) });
  if (socket.destroyed) return;
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
