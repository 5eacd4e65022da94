import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

export class ArchiveUploadDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'An archive made by GET /research/{id}/archive.zip' })
  @IsOptional()
  file?: unknown;
}

export class ArchiveImportedDto {
  @ApiProperty({ format: 'uuid', description: 'The new test' })
  id!: string;

  @ApiProperty({ format: 'uuid', description: 'The test the archive was made of' })
  source_research_id!: string;

  @ApiProperty({ description: "The raw data's SHA-256, reproduced by the imported readings" })
  data_sha256!: string;

  @ApiProperty()
  readings!: number;
}
