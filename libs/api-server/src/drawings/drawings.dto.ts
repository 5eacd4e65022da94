import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import type { ResearchDrawingEntity } from '@furnace/db';

export class DrawingDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty({ description: 'The name it was uploaded under' }) filename!: string;
  @ApiProperty({ enum: ['application/pdf', 'image/png', 'image/jpeg'], description: 'What its bytes are' })
  mime!: string;
  @ApiProperty({ description: 'Bytes of the stored file (an image as encoded again)' }) size!: number;
  @ApiProperty({ type: String, nullable: true, description: 'E-mail of who uploaded it' }) created_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class DrawingsDto {
  @ApiProperty({ type: [DrawingDto] }) data!: DrawingDto[];
}

export const toDrawingDto = (d: ResearchDrawingEntity): DrawingDto => ({
  id: d.id,
  research_id: d.researchId,
  filename: d.filename,
  mime: d.mime,
  size: d.size,
  created_by: d.createdBy,
  created_at: d.createdAt.toISOString(),
});

/** Multipart form of POST /research/{id}/drawings (documented for OpenAPI; the file arrives through multer). */
export class DrawingUploadDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description: 'A PDF (.pdf) or a PNG or JPEG image (.png, .jpg, .jpeg) of the specimen, at most 20 MiB',
  })
  @IsOptional()
  file?: unknown;
}
