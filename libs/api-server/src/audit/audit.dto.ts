import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsDateString, IsEmail, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import type { AuditEntryEntity } from '@furnace/db';

/** Entries a page holds unless the caller asks for another number. */
const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 200;

const DateTimeWithZone = () =>
  applyDecorators(
    IsDateString({ strict: true }),
    Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: '$property must include a time zone (Z or ±hh:mm)' }),
  );

/** A page of the trail: newest first. */
export class AuditPageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    default: 1,
    minimum: 1,
    description: 'The page, from 1 (the newest entries)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page = 1;

  @ApiPropertyOptional({ type: 'integer', default: DEFAULT_PER_PAGE, minimum: 1, maximum: MAX_PER_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PER_PAGE)
  per_page = DEFAULT_PER_PAGE;
}

/** The whole trail's filters (superusers). */
export class AuditSearchQueryDto extends AuditPageQueryDto {
  @ApiPropertyOptional({ format: 'email', description: 'Only the changes this user made (their e-mail)' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'actor must be an e-mail address' })
  actor?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the changes of this research (also one deleted since)' })
  @IsOptional()
  @IsUUID(undefined, { message: 'research_id must be a UUID' })
  research_id?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Changes at or after this moment (ISO 8601 with a time zone)',
  })
  @IsOptional()
  @DateTimeWithZone()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Changes before this moment (ISO 8601 with a time zone)' })
  @IsOptional()
  @DateTimeWithZone()
  to?: string;
}

export class AuditEntryDto {
  @ApiProperty({ description: 'Grows with every entry: a later entry has a higher id' }) id!: string;
  @ApiProperty({ format: 'date-time', description: 'When the change was stored' }) at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'E-mail of who made the change; null: the system itself' })
  actor!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The test it concerns; null for a change to a user',
  })
  research_id!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The test's name now; null for a user, or a test deleted since (its delete entry holds the name)",
  })
  research_name!: string | null;
  @ApiProperty({
    example: 'research',
    description:
      'What was changed: research, profile, t0, report, thermo_config, exclusion, observation, email, url, drawing, user, …',
  })
  entity!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The changed row's id (none for a client's e-mail record: its id is the client's access code)",
  })
  entity_id!: string | null;
  @ApiProperty({
    example: 'update',
    description: 'create | update | delete | send | password | archive | unarchive | …',
  })
  action!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The values before the change (the fields that changed); null for a creation',
  })
  before!: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The values after it; null for a deletion',
  })
  after!: Record<string, unknown> | null;
}

export class AuditEntriesDto {
  @ApiProperty({ type: [AuditEntryDto], description: 'Newest first' }) data!: AuditEntryDto[];
  @ApiProperty({ description: 'Entries matching, on every page' }) count!: number;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
}

export const toAuditEntryDto = (e: AuditEntryEntity, researchName: string | null): AuditEntryDto => ({
  id: e.id,
  at: e.at.toISOString(),
  actor: e.actor,
  research_id: e.researchId,
  research_name: researchName,
  entity: e.entity,
  entity_id: e.entityId,
  action: e.action,
  before: e.before as Record<string, unknown> | null,
  after: e.after as Record<string, unknown> | null,
});
