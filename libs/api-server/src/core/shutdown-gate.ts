import type { Server } from 'node:http';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';

/**
 * Graceful stop of the HTTP side. When the application starts closing, the server stops accepting
 * connections at once (a new one is refused, so a proxy moves on to another instance), idle
 * keep-alive connections are closed, and a request that still arrives on an open connection is
 * answered 503 with `Connection: close` instead of being served by a process that is taking its
 * database and bus down. Requests already running finish. The live stream's viewers are closed with
 * code 1012 by the gateway (docs/performance.md, "Stopping an instance").
 */
@Injectable()
export class ShutdownGate implements OnModuleDestroy {
  private closing = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get isClosing(): boolean {
    return this.closing;
  }

  /** Idempotent: the first hook of the shutdown that runs calls it. */
  begin(): void {
    if (this.closing) return;
    this.closing = true;
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server?.listening) server.close();
    server?.closeIdleConnections();
  }

  onModuleDestroy(): void {
    this.begin();
  }

  /** Express middleware, mounted first: 503 for every request once closing. */
  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    if (!this.closing) return next();
    res.setHeader('Connection', 'close');
    res.setHeader('Retry-After', '1');
    res.status(503).json({ detail: 'This server is stopping; retry the request' });
  };
}
