import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { DEFAULT_LANGUAGE, type Language } from '@furnace/text';
import { LanguageField, PasswordField } from '../core/validators';

/** OAuth2 password form (application/x-www-form-urlencoded); the username is the e-mail. */
export class LoginFormDto {
  @ApiProperty({ description: 'E-mail address' }) @IsString() @IsNotEmpty() @MaxLength(255) username!: string;
  @ApiProperty({ format: 'password' }) @IsString() @IsNotEmpty() @MaxLength(128) password!: string;
  // The OAuth2 form may carry these; they are accepted and ignored.
  @ApiProperty({ required: false }) @IsOptional() @IsString() grant_type?: string;
  @ApiProperty({ required: false }) @IsOptional() @IsString() scope?: string;
  @ApiProperty({ required: false }) @IsOptional() @IsString() client_id?: string;
  @ApiProperty({ required: false }) @IsOptional() @IsString() client_secret?: string;
}

export class TokenDto {
  @ApiProperty() access_token!: string;
  @ApiProperty({ example: 'bearer' }) token_type!: 'bearer';
}

export class NewPasswordDto {
  @ApiProperty() @IsString() @IsNotEmpty() token!: string;
  @PasswordField() new_password!: string;
}

/** The recovery e-mail's language: the reader's, which the dashboard sends as the language it is shown in (docs/behaviour.md §1). */
export class RecoveryQueryDto {
  @LanguageField(
    "Language of the recovery e-mail: Polish (default, the installation's language) or English. The dashboard sends the language it is shown in.",
  )
  lang: Language = DEFAULT_LANGUAGE;
}
