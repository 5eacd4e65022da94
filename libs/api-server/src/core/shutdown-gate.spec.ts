import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpAdapterHost } from '@nestjs/core';
import express from 'express';
import { ShutdownGate } from './shutdown-gate';

describe('ShutdownGate', () => {
  let server: Server;
  let gate: ShutdownGate;
  let url: string;

  beforeEach(async () => {
    const app = express();
    server = createServer(app);
    gate = new ShutdownGate({ httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost);
    app.use(gate.middleware);
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  it('serves requests until the application starts closing', async () => {
    const res = await fetch(`${url}/ok`);
    expect(res.status).toBe(200);
    expect(gate.isClosing).toBe(false);
  });

  it('once closing: stops listening (new connections are refused) and answers 503 with Connection: close', async () => {
    // A request that is running when the stop begins is answered by the gate's middleware when it reaches it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const app = express();
    app.use(async (_req, _res, next) => {
      await held;
      next();
    });
    app.use(gate.middleware);
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    server.removeAllListeners('request');
    server.on('request', app);

    const pending = fetch(`${url}/ok`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.onModuleDestroy();
    expect(gate.isClosing).toBe(true);
    expect(server.listening).toBe(false);
    await expect(fetch(`${url}/ok`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    release();
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.headers.get('connection')).toBe('close');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({ detail: 'This server is stopping; retry the request' });
  });
});
