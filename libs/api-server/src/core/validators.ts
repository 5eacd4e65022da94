import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { PASSWORD_MIN_LENGTH as MIN_PASSWORD_LENGTH } from '@furnace/contracts';
import { DEFAULT_LANGUAGE, LANGUAGES } from '@furnace/text';
const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/**
 * The field may be left out, but when present it must be valid: unlike IsOptional, null is validated
 * (and refused) instead of reaching a NOT NULL column as a 500.
 */
export const OptionalNotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/**
 * A `lang` query parameter or body field: one of the catalogue's languages; left out, the installation's
 * (docs/behaviour.md §1); null in a body is refused like any other value that is not a language.
 */
export const LanguageField = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ description, enum: LANGUAGES, default: DEFAULT_LANGUAGE }),
    OptionalNotNull(),
    IsIn(LANGUAGES, { message: `lang must be one of ${LANGUAGES.join(', ')}` }),
  );

/** An e-mail address: trimmed, validated, at most 255 characters. */
export const EmailField = (options: { optional?: boolean } = {}) =>
  applyDecorators(
    ...(options.optional
      ? [OptionalNotNull(), ApiPropertyOptional({ format: 'email', maxLength: 255 })]
      : [ApiProperty({ format: 'email', maxLength: 255 })]),
    trim,
    IsEmail({}, { message: 'value is not a valid email address' }),
    MaxLength(255),
  );

/** A new password: at least 8 characters (argon2 is given at most 128). */
export const PasswordField = (options: { optional?: boolean } = {}) =>
  applyDecorators(
    ...(options.optional
      ? [OptionalNotNull(), ApiPropertyOptional({ minLength: MIN_PASSWORD_LENGTH, maxLength: 128, format: 'password' })]
      : [ApiProperty({ minLength: MIN_PASSWORD_LENGTH, maxLength: 128, format: 'password' })]),
    IsString(),
    MinLength(MIN_PASSWORD_LENGTH, { message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters` }),
    MaxLength(128),
  );

export const FullNameField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: 255 }),
    IsOptional(),
    trim,
    IsString(),
    MaxLength(255),
  );
