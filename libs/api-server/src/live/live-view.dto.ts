import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ObservationDto, ThermoExclusionDto } from '../criteria/observation.dto';
import { HistoryDto } from '../history/history.dto';
import { ResearchDto, UrlDto } from '../research/research.dto';
import { ThermoConfigDto, ThermoMarkerDto } from '../thermo/thermo.dto';

/** Points of the curves' history a live view reads (the dashboard asks for 750). */
const LIVE_VIEW_POINTS = { default: 750, min: 2, max: 2_000 } as const;

export class LiveViewQueryDto {
  @ApiPropertyOptional({
    description: "Most points per series of the curves' history",
    type: 'integer',
    minimum: LIVE_VIEW_POINTS.min,
    maximum: LIVE_VIEW_POINTS.max,
    default: LIVE_VIEW_POINTS.default,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(LIVE_VIEW_POINTS.min)
  @Max(LIVE_VIEW_POINTS.max)
  points: number = LIVE_VIEW_POINTS.default;
}

/**
 * Everything a live view shows before its stream opens, in one answer: what GET /research/{id}, its
 * /urls, /thermo, /thermo/coords, /observations, /exclusions and /history (no thermocouple series)
 * answer this caller. The caller's own stream ticket comes in the response's headers (STREAM_TICKET_HEADERS):
 * the body is the same for every caller of one audience, and is compressed once for them all.
 */
export class LiveViewDto {
  @ApiProperty({ type: ResearchDto }) research!: ResearchDto;
  @ApiProperty({ type: [UrlDto] }) urls!: UrlDto[];
  @ApiProperty({ type: [ThermoConfigDto] }) configs!: ThermoConfigDto[];
  @ApiProperty({ type: [ThermoMarkerDto] }) markers!: ThermoMarkerDto[];
  @ApiProperty({ type: [ObservationDto], description: 'A client gets those visible to clients' })
  observations!: ObservationDto[];
  @ApiProperty({ type: [ThermoExclusionDto] }) exclusions!: ThermoExclusionDto[];
  @ApiProperty({
    type: HistoryDto,
    description: 'The scalar series and the measurement types’ max and mean, at most `points` points',
  })
  history!: HistoryDto;
}

/** The response headers of GET /research/{id}/live-view that carry the caller's stream ticket. */
export const STREAM_TICKET_HEADERS = { ticket: 'Stream-Ticket', expiresIn: 'Stream-Ticket-Expires-In' } as const;
