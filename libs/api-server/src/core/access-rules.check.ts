import { type INestApplication, RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ACCESS_RULE, type AccessRule } from '../auth/access.decorator';
import { AUDIT_DECLARATION, type AuditDeclaration } from '../audit/audited.decorator';
import { API_PREFIX } from './http';

export interface RouteRule {
  /** Controller.handler */
  route: string;
  rule: AccessRule | undefined;
  /** The HTTP method and the full paths (with :params) the handler answers, e.g. GET /api/v1/users/:user_id */
  method: string;
  paths: string[];
  /** What the route says of the audit trail (audit/audited.decorator.ts), when it says anything. */
  audit: AuditDeclaration | undefined;
}

const asList = (p: unknown): string[] => (Array.isArray(p) ? p.map(String) : [String(p ?? '')]);
const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');

/** Every handler of every controller with the access rule it carries. */
export function listRouteRules(app: INestApplication): RouteRule[] {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const reflector = app.get(Reflector);
  const out: RouteRule[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance || !wrapper.metatype) continue;
    const proto = Object.getPrototypeOf(instance) as object;
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = (proto as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const rule = reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [handler, wrapper.metatype]);
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] ?? 'GET';
      const paths = asList(Reflect.getMetadata(PATH_METADATA, wrapper.metatype)).flatMap((base) =>
        asList(Reflect.getMetadata(PATH_METADATA, handler)).map((sub) => joinPath(API_PREFIX, base, sub)),
      );
      const audit = reflector.get<AuditDeclaration | undefined>(AUDIT_DECLARATION, handler);
      out.push({ route: `${wrapper.metatype.name}.${name}`, rule, method, paths, audit });
    }
  }
  return out;
}

/** Refuses to start an API in which any route lacks an explicit access rule. */
export function assertAccessRules(app: INestApplication): void {
  const missing = listRouteRules(app).filter((r) => !r.rule);
  if (missing.length) throw new Error(`Routes without an access rule: ${missing.map((m) => m.route).join(', ')}`);
}
