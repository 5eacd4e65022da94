import { type ArgumentMetadata, Injectable, ParseUUIDPipe, ValidationPipe, type ValidationError } from '@nestjs/common';
import { toValidationDetails, validationException } from './errors';

class ValidationFailed {
  constructor(readonly errors: ValidationError[]) {}
}

/**
 * Validates every request at the edge, once: unknown fields refused, types transformed. A failure is a
 * 422 whose details name where the bad value was (body, query or path).
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
      throw validationException([{ loc: ['path', metadata.data ?? 'id'], msg: 'value is not a valid UUID', type: 'uuid_parsing' }]);
    }
  }
}
