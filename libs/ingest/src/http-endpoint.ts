import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * The ingest process's only HTTP surface, for the orchestrator and Prometheus:
 * GET /health (200 while the broker is connected and the database takes writes, 503 otherwise)
 * and GET /metrics (Prometheus text). Meant for the compose network only (README "Metrics").
 */
export function startHttpEndpoint(
  registry: Registry,
  health: () => { broker: boolean; database: boolean; buffered: number },
  port: number,
  host: string,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': registry.contentType });
          res.end(text);
        },
        () => {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ detail: 'Metrics unavailable' }));
        },
      );
      return;
    }
    if (req.method === 'GET' && path === '/health') {
      const state = health();
      res.writeHead(state.broker && state.database ? 200 : 503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(state));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ detail: 'Not Found' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
