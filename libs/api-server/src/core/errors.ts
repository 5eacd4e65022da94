import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  UnprocessableEntityException,
  type ValidationError,
} from '@nestjs/common';
import type { Response } from 'express';
import { QueryFailedError } from 'typeorm';

/** SQLSTATE object_not_in_prerequisite_state: raised by the triggers that freeze an approved test's record. */
const FROZEN_RECORD = '55000';
/** SQLSTATE unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** The SQLSTATE of a database error: TypeORM's QueryFailedError (its driver's error) or the driver's own. */
export function sqlState(e: unknown): string | undefined {
  const error = e instanceof QueryFailedError ? (e.driverError as unknown) : e;
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A write the database refused for a unique constraint or index (a name, an address, a time taken twice). */
export const isUniqueViolation = (e: unknown): boolean => sqlState(e) === UNIQUE_VIOLATION;

export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Flattens class-validator's tree into the {loc, msg, type} list the dashboard reads. */
export function toValidationDetails(
  errors: ValidationError[],
  location = 'body',
  parent: (string | number)[] = [],
): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  for (const e of errors) {
    const path = [...parent, /^\d+$/.test(e.property) ? Number(e.property) : e.property];
    for (const [type, msg] of Object.entries(e.constraints ?? {})) {
      out.push({ loc: [location, ...path], msg, type });
    }
    if (e.children?.length) out.push(...toValidationDetails(e.children, location, path));
  }
  return out;
}

export function validationException(details: ValidationDetail[]): UnprocessableEntityException {
  return new UnprocessableEntityException({ detail: details });
}

/**
 * Every error leaves the API as {"detail": "message"} or, for validation, {"detail": [{loc, msg, type}]}.
 * Unexpected errors are logged with their stack and answered with a generic 500: internals never reach
 * the client.
 */
@Catch()
export class DetailExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      let detail: unknown;
      if (typeof body === 'string') detail = body;
      else if (body && typeof body === 'object' && 'detail' in body) detail = (body as { detail: unknown }).detail;
      else if (body && typeof body === 'object' && 'message' in body) {
        const m = (body as { message: unknown }).message;
        detail = Array.isArray(m) ? m.join('; ') : m;
      } else detail = exception.message;
      if (status === HttpStatus.TOO_MANY_REQUESTS && typeof detail !== 'string') detail = 'Too many requests';
      send(res, status, detail);
      return;
    }
    // The database's own refusal of a change to an approved test's record (migration PermanentRecord): what the
    // API's check refuses first, met in the moment between that check and the write.
    if (exception instanceof QueryFailedError && sqlState(exception) === FROZEN_RECORD) {
      send(res, HttpStatus.CONFLICT, (exception.driverError as { message: string }).message);
      return;
    }
    if (isBodyParserError(exception)) {
      send(res, exception.status, exception.status === 413 ? 'Request body too large' : 'Malformed request body');
      return;
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    send(res, 500, 'Internal server error');
  }
}

/**
 * The error body is always JSON, even when the route had already declared another type (e.g. the
 * text/html of the recovery e-mail preview): res.json keeps a Content-Type that is already set.
 */
function send(res: Response, status: number, detail: unknown): void {
  res.status(status).type('application/json').json({ detail });
}

function isBodyParserError(e: unknown): e is { status: number; type: string } {
  return (
    !!e &&
    typeof e === 'object' &&
    'type' in e &&
    'status' in e &&
    typeof (e as { status: unknown }).status === 'number'
  );
}
