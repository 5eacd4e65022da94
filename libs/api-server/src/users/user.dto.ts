import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { UserEntity } from '@furnace/db';
import { EmailField, FullNameField, OptionalNotNull, PasswordField } from '../core/validators';

export class UserPublicDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ type: String, nullable: true }) full_name!: string | null;
  @ApiProperty() is_active!: boolean;
  @ApiProperty() is_superuser!: boolean;
  @ApiProperty({
    description:
      'The account was created with the default password: every route but the password change answers 403 until it is changed',
  })
  must_change_password!: boolean;
}

export class UsersPublicDto {
  @ApiProperty({ type: [UserPublicDto] }) data!: UserPublicDto[];
  @ApiProperty() count!: number;
}

export const toUserDto = (u: UserEntity): UserPublicDto => ({
  id: u.id,
  email: u.email,
  full_name: u.fullName,
  is_active: u.isActive,
  is_superuser: u.isSuperuser,
  must_change_password: u.mustChangePassword,
});

/** A superuser's user body (create or update) in the service's terms. */
export const fromUserDto = <T extends UserCreateDto | UserUpdateDto>(body: T) => ({
  email: body.email as T['email'],
  password: body.password as T['password'],
  fullName: body.full_name,
  isActive: body.is_active,
  isSuperuser: body.is_superuser,
});

export class UserCreateDto {
  @EmailField() email!: string;
  @PasswordField() password!: string;
  @FullNameField() full_name?: string | null;
  @ApiPropertyOptional({ default: true }) @OptionalNotNull() @IsBoolean() is_active?: boolean;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_superuser?: boolean;
}

export class UserRegisterDto {
  @EmailField() email!: string;
  @PasswordField() password!: string;
  @FullNameField() full_name?: string | null;
}

export class UserUpdateDto {
  @EmailField({ optional: true }) email?: string;
  @PasswordField({ optional: true }) password?: string;
  @FullNameField() full_name?: string | null;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_active?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_superuser?: boolean;
}

export class UserUpdateMeDto {
  @FullNameField() full_name?: string | null;
  @EmailField({ optional: true }) email?: string;
  @ApiPropertyOptional({ format: 'password', description: 'Required when `email` changes' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  current_password?: string;
}

export class UpdatePasswordDto {
  @ApiProperty({ format: 'password' }) @IsString() current_password!: string;
  @PasswordField() new_password!: string;
}

export class ListUsersQueryDto {
  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  skip = 0;
  @ApiPropertyOptional({ type: 'integer', default: 100, minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit = 100;
}
