import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  UnauthorizedException,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocket, WebSocketServer } from 'ws';
import type { ApiConfig } from '@furnace/config';
import { PASSWORD_CHANGE_REQUIRED } from '../auth/access.guard';
import { bearerToken, CallerService } from '../auth/caller.service';
import { type Revocation, Revocations } from '../auth/revocations';
import { API_PREFIX } from '../core/http';
import { ShutdownGate } from '../core/shutdown-gate';
import { APP_CONFIG } from '../core/tokens';
import { httpError } from '../live/live-access.service';
import { STREAM_PATH } from '../live/live.gateway';
import { StreamTickets } from '../live/stream-tickets';
import { UsersRepository } from '../users/users.repository';
import { LabOverview } from './lab-overview.service';

const LAB_STREAM_PATH = new RegExp(`^/${API_PREFIX}/lab/stream/?$`);
/** A socket that answers no ping for this long is gone. */
const IDLE_MS = 30_000;
const CLOSE_ACCESS_ENDED = 4401;
const CLOSE_SERVICE_RESTART = 1012;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The lab overview's WebSocket, /api/v1/lab/stream (docs/behaviour.md §18): staff only, authorised before the
 * handshake like the research stream (a ticket from POST /lab/stream-ticket, or a staff token for scripts); a
 * client's code or viewer token is refused 403, no credential 401. Transport only: the tiles are LabOverview's.
 */
@Injectable()
export class LabGateway implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Lab');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  private server: Server | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly alive = new WeakMap<WebSocket, boolean>();
  /** Each open socket's user, so a revocation closes it. */
  private readonly users = new Map<WebSocket, string>();
  private stopRevocations: (() => Promise<void>) | null = null;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    this.upgrade(req, socket, head).catch((error: unknown) => {
      this.logger.error(`Lab stream upgrade failed: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    });
  };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly overview: LabOverview,
    private readonly callers: CallerService,
    private readonly tickets: StreamTickets,
    private readonly usersRepository: UsersRepository,
    private readonly revocations: Revocations,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
    private readonly gate: ShutdownGate,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopRevocations = await this.revocations.subscribe((r) => this.revoke(r));
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.server.on('upgrade', this.onUpgrade);
    this.heartbeat = setInterval(() => this.checkAlive(), IDLE_MS);
    this.heartbeat.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.server?.off('upgrade', this.onUpgrade);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.stopRevocations?.().catch(() => undefined);
    // The page reconnects at once on "Service Restart", to this instance's successor or another.
    for (const ws of this.wss.clients) ws.close(CLOSE_SERVICE_RESTART, 'Server restarting');
  }

  onApplicationShutdown(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  /** The staff user the upgrade's credentials name, or the HTTP error to answer. */
  private async authorize(req: IncomingMessage, url: URL): Promise<{ userId: string; expiresAt: Date }> {
    const ticket = url.searchParams.get('ticket');
    const token = url.searchParams.get('token') ?? bearerToken(req);
    if (ticket) {
      const holder = await this.tickets.redeem(ticket, null);
      if (!holder) throw new UnauthorizedException('Invalid or expired ticket');
      if (!holder.userId) throw new ForbiddenException('The lab overview is for staff only');
      const user = await this.usersRepository.findById(holder.userId);
      if (!user?.isActive) throw new UnauthorizedException('Could not validate credentials');
      return { userId: user.id, expiresAt: holder.credentialExpiresAt };
    }
    if (token) {
      const principal = await this.callers.fromToken(token);
      if (principal.kind !== 'user') throw new ForbiddenException('The lab overview is for staff only');
      if (principal.user.mustChangePassword) throw new ForbiddenException(PASSWORD_CHANGE_REQUIRED);
      return { userId: principal.user.id, expiresAt: principal.expiresAt };
    }
    if (url.searchParams.get('code')) throw new ForbiddenException('The lab overview is for staff only');
    throw new UnauthorizedException('Not authenticated');
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stream.invalid');
    if (!LAB_STREAM_PATH.test(url.pathname)) {
      // The research stream's path is LiveGateway's; any other, with no third listener to own it, is answered here.
      if (!STREAM_PATH.test(url.pathname) && this.server && this.server.listenerCount('upgrade') <= 2)
        refuse(socket, 404, 'Not Found');
      return;
    }
    socket.on('error', () => socket.destroy());
    const origin = req.headers.origin;
    if (origin !== undefined && !this.config.allowedOrigins.includes(origin))
      return refuse(socket, 403, 'Origin not allowed');
    if (this.gate.isClosing) return refuse(socket, 503, 'Lab stream unavailable');
    let who: { userId: string; expiresAt: Date };
    try {
      who = await this.authorize(req, url);
    } catch (error) {
      const { status, detail } = httpError(error);
      return refuse(socket, status >= 500 ? 503 : status, status >= 500 ? 'Lab stream unavailable' : detail);
    }
    if (socket.destroyed) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.connected(ws, who));
  }

  private async connected(ws: WebSocket, who: { userId: string; expiresAt: Date }): Promise<void> {
    this.alive.set(ws, true);
    this.users.set(ws, who.userId);
    ws.on('pong', () => this.alive.set(ws, true));
    ws.on('message', () => this.alive.set(ws, true));
    ws.on('error', () => ws.terminate());
    let unsubscribe: (() => void) | null = null;
    let expiry: NodeJS.Timeout | null = null;
    ws.on('close', () => {
      this.users.delete(ws);
      if (expiry) clearTimeout(expiry);
      unsubscribe?.();
    });
    const arm = () => {
      const wait = who.expiresAt.getTime() - Date.now();
      if (wait <= 0) return this.end(ws, 'Access expired');
      expiry = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
      expiry.unref();
    };
    arm();
    const remove = await this.overview.subscribe({
      get bufferedAmount() {
        return ws.bufferedAmount;
      },
      send: (data) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(data, { binary: false });
      },
      terminate: () => ws.terminate(),
    });
    if (ws.readyState === WebSocket.OPEN) unsubscribe = remove;
    else remove();
  }

  private revoke(revocation: Revocation): void {
    if (!('user' in revocation)) return;
    for (const [ws, userId] of this.users) if (userId === revocation.user) this.end(ws, 'Access revoked');
  }

  private end(ws: WebSocket, reason: string): void {
    this.users.delete(ws);
    ws.close(CLOSE_ACCESS_ENDED, reason);
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

const REASONS: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

function refuse(socket: Duplex, status: number, detail: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
