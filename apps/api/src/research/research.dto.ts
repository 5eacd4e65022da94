import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsDateString, IsNotEmpty, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import type { ResearchEntity } from '@furnace/db';
import { OptionalNotNull } from '../core/validators';

/** An ISO 8601 date-time that says its time zone: a bare local time would be read in the server's zone. */
const DateTimeWithZone = () =>
  applyDecorators(IsDateString({ strict: true }), Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: '$property must include a time zone (Z or ±hh:mm)' }));

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export class ResearchDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) start_at!: string;
  @ApiProperty({ format: 'date-time' }) end_at!: string;
  @ApiProperty({ description: 'Radiation is measured (kW/m²)' }) is_radiance!: boolean;
  @ApiProperty({ description: 'Mean furnace temperature is measured (°C)' }) is_furnance!: boolean;
  @ApiProperty({ description: 'Furnace pressure is measured (Pa)' }) is_pressure!: boolean;
}

export class ResearchesDto {
  @ApiProperty({ type: [ResearchDto] }) data!: ResearchDto[];
}

export const toResearchDto = (r: ResearchEntity): ResearchDto => ({
  id: r.id,
  name: r.name,
  start_at: r.startAt.toISOString(),
  end_at: r.endAt.toISOString(),
  is_radiance: r.isRadiance,
  is_furnance: r.isFurnance,
  is_pressure: r.isPressure,
});

export class ResearchCreateDto {
  @ApiProperty({ maxLength: 255 }) @trim @IsString() @IsNotEmpty({ message: 'name must not be empty' }) @MaxLength(255) name!: string;
  @ApiProperty({ format: 'date-time', description: 'ISO 8601 with a time zone offset' }) @DateTimeWithZone() start_at!: string;
  @ApiProperty({ format: 'date-time', description: 'After start_at' }) @DateTimeWithZone() end_at!: string;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_radiance?: boolean;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_furnance?: boolean;
  @ApiPropertyOptional({ default: false }) @OptionalNotNull() @IsBoolean() is_pressure?: boolean;
}

/** PUT accepts a partial body: only the fields given change. */
export class ResearchUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 }) @OptionalNotNull() @trim @IsString() @IsNotEmpty({ message: 'name must not be empty' }) @MaxLength(255) name?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @OptionalNotNull() @DateTimeWithZone() start_at?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @OptionalNotNull() @DateTimeWithZone() end_at?: string;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_radiance?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_furnance?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() is_pressure?: boolean;
}

export class ViewerTokenRequestDto {
  @ApiProperty({ description: 'The access code from the invitation link (?code=)' }) @IsString() @MaxLength(64) code!: string;
}

export class ViewerTokenDto {
  @ApiProperty({ description: 'Bearer token for reading this research only' }) access_token!: string;
  @ApiProperty({ example: 'bearer' }) token_type!: 'bearer';
  @ApiProperty({ description: 'Seconds until the token expires' }) expires_in!: number;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
}

export class UrlDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
}

export class UrlsDto {
  @ApiProperty({ type: [UrlDto] }) data!: UrlDto[];
}

export class UrlCreateDto {
  @ApiProperty({ maxLength: 2048, description: 'An http(s) link: YouTube, an HLS .m3u8 stream or another embeddable page' })
  @trim
  @IsString()
  @MaxLength(2048)
  url!: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() research_id!: string;
}

export class UrlUpdateDto {
  @ApiProperty({ maxLength: 2048 }) @trim @IsString() @MaxLength(2048) url!: string;
}

