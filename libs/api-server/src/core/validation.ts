import { type ArgumentMetadata, Injectable, ParseUUIDPipe, ValidationPipe, type ValidationError } from '@nestjs/common';
import { toValidationDetails, type ValidationDetail, validationException } from './errors';

class ValidationFailed {
  constructor(readonly errors: ValidationError[]) {}
}

/**
 * Validates every request at the edge, once: unknown fields refused, types transformed. A failure is a
 * 422 whose details name where the bad value was (body, query or path). A text with a NUL character
 * anywhere in a body or a query is refused first, whatever the route's DTO: PostgreSQL's text cannot
 * hold one, and the write would fail as a 500.
 */
export class DetailValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationFailed(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const nul = nulCharacters(value, [metadata.type]);
      if (nul.length) throw validationException(nul);
    }
    try {
      return await super.transform(value, metadata);
    } catch (e) {
      if (e instanceof ValidationFailed) {
        const location = metadata.type === 'param' ? 'path' : metadata.type === 'custom' ? 'body' : metadata.type;
        throw validationException(toValidationDetails(e.errors, location));
      }
      throw e;
    }
  }
}

/** Every text in a parsed body or query that holds a NUL character (U+0000), by where it is. */
function nulCharacters(value: unknown, loc: (string | number)[]): ValidationDetail[] {
  if (typeof value === 'string')
    return value.includes('\0')
      ? [{ loc, msg: 'must not contain a NUL character (U+0000)', type: 'string_nul_character' }]
      : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulCharacters(item, [...loc, i]));
  // Parsed JSON, forms and queries are plain objects; anything else (a Buffer) holds no text.
  if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.entries(value).flatMap(([key, item]) => [
      ...nulCharacters(key, [...loc, key]),
      ...nulCharacters(item, [...loc, key]),
    ]);
  }
  return [];
}

/** Thrown by ParseUUIDPipe's check; turned into the 422 naming the parameter below. */
class NotAUuid extends Error {}

/**
 * A path parameter that must be a UUID (Nest's ParseUUIDPipe, any version): a malformed one is a 422
 * naming the parameter ({"loc": ["path", "user_id"], ...}) like any other validation failure, not
 * ParseUUIDPipe's bare 400. Returns the lowercase form.
 */
@Injectable()
export class UuidParamPipe extends ParseUUIDPipe {
  constructor() {
    super({ exceptionFactory: (message) => new NotAUuid(message) });
  }

  override async transform(value: string, metadata: ArgumentMetadata): Promise<string> {
    try {
      return (await super.transform(value, metadata)).toLowerCase();
    } catch (error) {
      if (!(error instanceof NotAUuid)) throw error;
      throw validationException([
        { loc: ['path', metadata.data ?? 'id'], msg: 'value is not a valid UUID', type: 'uuid_parsing' },
      ]);
    }
  }
}
