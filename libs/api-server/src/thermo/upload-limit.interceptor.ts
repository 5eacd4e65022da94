import {
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import { catchError, type Observable, throwError } from 'rxjs';
import { MAX_IMAGE_BYTES } from './image-check';
import { MAX_CONFIG_BYTES } from './thermo.service';

/**
 * Multer stops an upload at the first file over its byte limit and says only "File too large";
 * placed before the file interceptor, this says which limit it was (`message`).
 */
export function tooLargeMessage(message: string): NestInterceptor {
  return {
    intercept: (_context: ExecutionContext, next: CallHandler): Observable<unknown> =>
      next
        .handle()
        .pipe(
          catchError((error: unknown) =>
            throwError(() =>
              error instanceof PayloadTooLargeException && error.message === 'File too large'
                ? new PayloadTooLargeException(message)
                : error,
            ),
          ),
        ),
  };
}

/** The thermocouple uploads' limits: the photo's, and the config file's. */
export const thermoUploadLimit = tooLargeMessage(
  `A file is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB (the limit of image_file; config_file's is ${MAX_CONFIG_BYTES / 1024} KiB)`,
);
