import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DEFAULT_LANGUAGE } from '@furnace/text';
import { LanguageField } from '../core/validators';
import type { ReportLang } from './report-text';

export class ReportQueryDto {
  @LanguageField('Language of the report: Polish (default) or English.')
  lang: ReportLang = DEFAULT_LANGUAGE;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      "The document as issued with this revision of the test, byte for byte (404 when the test has no such revision). Without it an approved test gets its revision's issued document, any other a document made now.",
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'revision must be a whole number, 1 or more' })
  @Min(1, { message: 'revision must be a whole number, 1 or more' })
  @Max(1_000_000, { message: 'revision must be a whole number, 1 or more' })
  revision?: number;
}
