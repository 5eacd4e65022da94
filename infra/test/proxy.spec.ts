// infra/nginx/nginx.conf, read as nginx reads it (directives and blocks, with nginx's inheritance
// rules), checked for what the live stream and the API need behind it.
import {
  child,
  children,
  dockerfileOf,
  environmentOf,
  loadCompose,
  type NginxDirective,
  nginxBytes,
  nginxSeconds,
  parseNginx,
  repoFile,
} from './support';

const conf = parseNginx(repoFile('infra/nginx/nginx.conf'));
const http = child(conf, 'http')?.block;
const server = children(http, 'server')[0]?.block;
const STREAM = '/api/v1/research/dane/stream/';
const stream = child(server, 'location', STREAM)?.block;
const root = child(server, 'location', '/')?.block;
const compose = loadCompose();
const apiServices = Object.entries(compose.services).filter(([, s]) => dockerfileOf(s) === 'apps/api/Dockerfile');

/** A directive's value in a location: its own, else the server's, else http's (nginx's rule for single-valued directives). */
function effective(location: NginxDirective[] | undefined, name: string): string[] | undefined {
  for (const level of [location, server, http]) {
    const found = child(level, name);
    if (found) return found.args;
  }
  return undefined;
}

/**
 * The request headers nginx sends upstream from a location. proxy_set_header is inherited from the
 * enclosing level only when the location sets none: a location that sets one must set them all.
 */
function upstreamHeaders(location: NginxDirective[] | undefined): Map<string, string> {
  for (const level of [location, server, http]) {
    const set = children(level, 'proxy_set_header');
    if (set.length > 0) return new Map(set.map((d) => [d.args[0]!.toLowerCase(), d.args[1] ?? '']));
  }
  return new Map();
}

describe('nginx.conf', () => {
  it('parses into http { server { … } }', () => {
    expect(http).toBeDefined();
    expect(server).toBeDefined();
    expect(stream).toBeDefined();
    expect(root).toBeDefined();
  });

  it('balances over every API service of docker-compose.yml, on the port the API listens on', () => {
    const upstream = child(http, 'upstream', 'furnace_api')?.block;
    const servers = children(upstream, 'server').map((d) => d.args[0]);
    expect(servers.sort()).toEqual(apiServices.map(([name, s]) => `${name}:${environmentOf(s).PORT}`).sort());
    // Long-lived sockets: a round-robin of requests would pile viewers onto one instance.
    expect(child(upstream, 'least_conn')).toBeDefined();
  });

  it('re-resolves the API containers (a recreated container gets a new address)', () => {
    const upstream = child(http, 'upstream', 'furnace_api')?.block;
    expect(child(upstream, 'zone')).toBeDefined();
    for (const d of children(upstream, 'server')) expect(d.args).toContain('resolve');
    expect(child(http, 'resolver')?.args[0]).toBe('127.0.0.11'); // Docker's embedded DNS
  });

  it('passes the WebSocket upgrade on the live stream', () => {
    expect(effective(stream, 'proxy_pass')).toEqual(['http://furnace_api']);
    expect(effective(stream, 'proxy_http_version')).toEqual(['1.1']);
    const headers = upstreamHeaders(stream);
    expect(headers.get('upgrade')).toBe('$http_upgrade');
    expect(headers.get('connection')).toBe('$connection_upgrade');
    const map = child(http, 'map', '$http_upgrade', '$connection_upgrade')?.block;
    expect(child(map, 'default')?.args).toEqual(['upgrade']);
  });

  it('keeps an idle-looking stream open for far longer than the API’s 30 s ping', () => {
    for (const name of ['proxy_read_timeout', 'proxy_send_timeout']) {
      const value = effective(stream, name);
      expect(value).toBeDefined();
      expect(nginxSeconds(value![0]!)).toBeGreaterThanOrEqual(600);
    }
  });

  it.each([
    ['the live stream', STREAM],
    ['the API and dashboard', '/'],
  ])('tells the API who the client is on %s', (_what, path) => {
    const location = child(server, 'location', path)?.block;
    expect(effective(location, 'proxy_pass')).toEqual(['http://furnace_api']);
    const headers = upstreamHeaders(location);
    expect(headers.get('host')).toBe('$host');
    // Appended to, never replaced by the client's own: the API decides which hops to trust.
    expect(headers.get('x-forwarded-for')).toBe('$proxy_add_x_forwarded_for');
    expect(headers.get('x-forwarded-proto')).toBeDefined();
  });

  it('keeps upstream connections alive for plain requests', () => {
    expect(effective(root, 'proxy_http_version')).toEqual(['1.1']);
    expect(upstreamHeaders(root).get('connection')).toBe('');
  });

  it('accepts 15 MB photo uploads', () => {
    expect(nginxBytes(effective(root, 'client_max_body_size')![0]!)).toBeGreaterThanOrEqual(15 * 1024 * 1024);
  });

  it('compresses JSON, scripts and styles, proxied responses included', () => {
    expect(child(http, 'gzip')?.args).toEqual(['on']);
    expect(child(http, 'gzip_proxied')?.args).toEqual(['any']);
    expect(child(http, 'gzip_types')?.args).toEqual(
      expect.arrayContaining(['application/json', 'application/javascript', 'text/css']),
    );
  });

  it('logs the path of a request, never its query string (a stream URL may carry a token, a code or a ticket)', () => {
    const formats = children(http, 'log_format');
    expect(formats.length).toBeGreaterThan(0);
    for (const format of formats) {
      const text = format.args.slice(1).join(' ');
      expect(text).toContain('$uri');
      expect(text).not.toMatch(/\$(request|request_uri|args|query_string|arg_\w+)(?!_)\b/);
    }
    // Every access log uses one of those formats (the default "combined" logs $request).
    for (const log of [child(http, 'access_log'), child(server, 'access_log')].filter(Boolean)) {
      if (log!.args[0] !== 'off') expect(formats.map((f) => f.args[0])).toContain(log!.args[1]);
    }
  });

  it('does not expose the metrics', () => {
    const location = child(server, 'location', '~*');
    // Case-insensitive: nginx compares prefix locations case-sensitively on Linux, so /API/V1/METRICS
    // would pass a prefix rule (the API's own routes are case-sensitive: see libs/api-server/src/app.ts).
    expect(location?.args).toEqual(['~*', '^/api/v1/metrics(/|$)']);
    const pattern = new RegExp(location!.args[1]!, 'i');
    for (const path of ['/api/v1/metrics', '/API/V1/METRICS', '/api/v1/Metrics', '/api/v1/metrics/'])
      expect(pattern.test(path)).toBe(true);
    for (const path of ['/api/v1/metricsx', '/api/v1/research/']) expect(pattern.test(path)).toBe(false);
    // No prefix location for the metrics that a case-sensitive match would use instead.
    expect(children(server, 'location').filter((l) => l.args.join(' ').toLowerCase().includes('metrics'))).toEqual([
      location,
    ]);
    const metrics = location?.block;
    expect(child(metrics, 'return')?.args[0] ?? child(metrics, 'deny')?.args[0]).toMatch(/^(404|403|all)$/);
    expect(child(metrics, 'proxy_pass')).toBeUndefined();
  });

  it('answers the health check of docker-compose.yml', () => {
    const test = compose.services.proxy?.healthcheck?.test as string[];
    const path = new URL(test[test.length - 1]!).pathname;
    expect(child(child(server, 'location', '=', path)?.block, 'return')?.args[0]).toBe('200');
  });
});
