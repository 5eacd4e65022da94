import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PasswordField } from '../core/validators';

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
