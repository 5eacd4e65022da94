import type { Server } from 'node:http';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { pino } from 'pino';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ApiConfig } from '@furnace/config';
import { AppModule, type ApiDeps } from './app.module';
import { assertAccessRules } from './core/access-rules.check';
import { DetailExceptionFilter } from './core/errors';
import { API_PREFIX, compressResponses, serveDashboard } from './core/http';
import { requestLog } from './core/request-log';
import { ShutdownGate } from './core/shutdown-gate';
import { createLogger, type FurnaceLogger } from '@furnace/logger';
import { Logger as RequestScopedLogger } from 'nestjs-pino';
import { securityHeaders } from './core/security-headers';
import { DetailValidationPipe } from './core/validation';
import { UsersService } from './users/users.service';

const DASHBOARD_DIST = join(__dirname, '..', '..', '..', 'apps', 'dashboard', 'dist');

function configure(app: NestExpressApplication, config: Pick<ApiConfig, 'trustProxy'>): void {
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(new DetailValidationPipe());
  app.useGlobalFilters(new DetailExceptionFilter());
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names; otherwise the client's
  // address is the socket's, whatever a caller writes into headers (rate limits count by it).
  app.set('trust proxy', config.trustProxy.length ? config.trustProxy : false);
  app.disable('x-powered-by');
}

function openApiDocument(app: NestExpressApplication, brand = 'Furnace Live'): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(`${brand} API`)
    .setDescription(
      'REST API of Furnace Live. Staff authenticate with a bearer token from POST /api/v1/login/access-token. ' +
        'Errors are {"detail": "message"}, or for validation (422) {"detail": [{"loc", "msg", "type"}]}.',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
}

/** Builds the API (not yet listening): REST under /api/v1, its OpenAPI document and docs page, the dashboard. */
export async function createApiApp(
  deps: ApiDeps,
  options: { logger?: FurnaceLogger; dashboardDir?: string } = {},
): Promise<NestExpressApplication> {
  const logger = options.logger ?? createLogger(deps.config);
  // Routes match case-sensitively: /api/v1/METRICS is not /api/v1/metrics, so a proxy rule written for
  // one spelling (infra/nginx/nginx.conf) cannot be walked around with another. Express reads the
  // setting once, when its router is first used: hence an instance of our own, configured first.
  const server = express();
  server.set('case sensitive routing', true);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(deps, logger.pino),
    new ExpressAdapter(server),
    { logger, bodyParser: false },
  );
  // From here on Nest's Logger writes through nestjs-pino: the same pino, plus the request's id on
  // every line logged while a request runs. The request log comes first, so every request is logged.
  app.useLogger(app.get(RequestScopedLogger));
  app.use(requestLog(logger.pino));
  app.use(securityHeaders({ frameAncestors: deps.config.frameAncestors }));
  // Before any route: once the process stops, every request is answered 503 (see ShutdownGate).
  app.use(app.get(ShutdownGate).middleware);
  app.use(`/${API_PREFIX}`, compressResponses());
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { limit: '64kb', extended: false });
  configure(app, deps.config);
  assertAccessRules(app);
  const document = openApiDocument(app, deps.config.brandName);
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    customSiteTitle: `${deps.config.brandName} API`,
  });
  serveDashboard(app, options.dashboardDir ?? DASHBOARD_DIST);
  await app.init();
  const outcome = await app
    .get(UsersService)
    .ensureFirstSuperuser(
      deps.config.firstSuperuser,
      deps.config.firstSuperuserPassword,
      deps.config.firstSuperuserPasswordIsDefault,
    );
  if (outcome === 'created') logger.log(`First superuser ${deps.config.firstSuperuser} created`, 'Bootstrap');
  return app;
}

/**
 * Connections waiting to be accepted. Node's default (511) overflows when a crowd connects at once — the
 * viewers of a long test reconnecting after a restart, each browser opening several connections —, and
 * the kernel then drops the connections it cannot queue, which the clients retry after 1, 3, 7… s
 * (docs/performance.md, "Clients joining a long test"). The kernel caps it at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 8192;

/**
 * How long an idle keep-alive connection stays open, ms. Node's default, 5 s, is shorter than the time a client keeps
 * an idle connection for its next request: a request sent on it just as the server closes it is reset (ECONNRESET),
 * and a client does not send a POST again by itself. 65 s is longer than common clients' and proxies' idle timeouts
 * (60 s), so they close first. `headersTimeout` must be longer still (Node's rule).
 */
const KEEP_ALIVE_MS = 65_000;

/** Starts listening (the app is initialised by createApiApp) with a backlog for a crowd. */
export function listenApi(app: NestExpressApplication, port: number, host: string): Promise<void> {
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The OpenAPI document without a database: Nest's preview mode builds the routes but no providers. */
export async function buildOpenApiDocument(deps: ApiDeps): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(deps, pino({ enabled: false })), {
    preview: true,
    logger: false,
  });
  configure(app, deps.config);
  const doc = openApiDocument(app, 'Furnace Live');
  await app.close();
  return doc;
}
