/* The research endpoints' shapes, from the client generated from the OpenAPI document. */
import type {
  DrawingDto,
  EmailRecordDto,
  ResearchCreateDto,
  ResearchDto,
  ResearchUpdateDto,
  ThermoConfigDto,
  ThermoMarkerDto,
  UrlDto,
} from '@furnace/api-client';

export type Research = ResearchDto;
export type ResearchCreate = ResearchCreateDto;
export type ResearchUpdate = ResearchUpdateDto;
export type ResearchUrl = UrlDto;
export type ResearchEmail = EmailRecordDto;
export type ThermoConfig = ThermoConfigDto;
export type Marker = ThermoMarkerDto;
export type Drawing = DrawingDto;
