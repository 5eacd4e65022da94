import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import type { ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';
import { MEASUREMENT_TYPES, THERMO_ZONES, type ThermoZone } from '@furnace/contracts';

export class ThermoConfigDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) research_id!: string;
  @ApiProperty() image_filename!: string;
  @ApiProperty() config_filename!: string;
  @ApiProperty({ description: 'Photo width in pixels: markers are in these coordinates' }) image_width!: number;
  @ApiProperty() image_height!: number;
}

export class ThermoConfigsDto {
  @ApiProperty({ type: [ThermoConfigDto] }) data!: ThermoConfigDto[];
}

export const toThermoConfigDto = (c: ThermoConfigEntity): ThermoConfigDto => ({
  id: c.id,
  research_id: c.researchId,
  image_filename: c.imageFilename,
  config_filename: c.configFilename,
  image_width: c.imageWidth,
  image_height: c.imageHeight,
});

/** Multipart form of POST /research/thermo (documented for OpenAPI; the files arrive through multer). */
export class ThermoUploadDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() research_id!: string;
  @ApiProperty({ type: 'string', format: 'binary', description: 'PNG or JPEG photo of the specimen' })
  @IsOptional()
  image_file?: unknown;
  @ApiProperty({ type: 'string', format: 'binary', description: 'Thermocouple config (.txt), UTF-8 or Windows-1250' })
  @IsOptional()
  config_file?: unknown;
}

/** Multipart form of PUT /research/thermo/{id}/config: a config file replacing the config's markers. */
export class ThermoConfigFileDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'Thermocouple config (.txt), UTF-8 or Windows-1250' })
  @IsOptional()
  config_file?: unknown;
}

export class ThermoMarkerDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) config_id!: string;
  @ApiProperty({ description: 'Channel: thermocouples_out[thermo_id - 1]' }) thermo_id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: MEASUREMENT_TYPES.map((t) => t.name) }) type_name!: string;
  @ApiProperty({ example: '#E53935' }) color_hex!: string;
  @ApiProperty() item_x!: number;
  @ApiProperty() item_y!: number;
  @ApiProperty() item_size!: number;
  @ApiProperty() label_x!: number;
  @ApiProperty() label_y!: number;
  @ApiProperty() label_width!: number;
  @ApiProperty() label_height!: number;
  /*
   * Always sent. Optional in the schema so that a marker made without it (a client built before
   * zones, a test's fixture) is still a marker, meaning what it always meant: both classes. null is
   * listed in the enum so that generated clients type it as 'I1' | 'I2' | null.
   */
  @ApiProperty({
    type: String,
    enum: [...THERMO_ZONES, null],
    nullable: true,
    required: false,
    description: 'EN 1634-1 insulation class the thermocouple counts for: I1 or I2 only; null for both',
  })
  zone?: ThermoZone | null;
}

export class ThermoMarkersDto {
  @ApiProperty({ type: [ThermoMarkerDto] }) data!: ThermoMarkerDto[];
}

export const toMarkerDto = (m: ThermoMarkerEntity): ThermoMarkerDto => ({
  id: m.id,
  config_id: m.configId,
  thermo_id: m.thermoId,
  name: m.name,
  type_name: m.typeName,
  color_hex: m.colorHex,
  item_x: m.itemX,
  item_y: m.itemY,
  item_size: m.itemSize,
  label_x: m.labelX,
  label_y: m.labelY,
  label_width: m.labelWidth,
  label_height: m.labelHeight,
  zone: m.zone,
});

export class MeasurementTypeDto {
  @ApiProperty({ example: 'Tśr i Tmax' }) name!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Critical maximum temperature, °C' }) critical_max!:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Critical mean temperature, °C' }) critical_mean!:
    number | null;
  @ApiProperty({ example: '#E53935', description: 'The colour a new marker of this type gets' }) color_hex!: string;
  @ApiProperty() description_pl!: string;
  @ApiProperty() description_en!: string;
}

export class MeasurementTypesDto {
  @ApiProperty({ type: [MeasurementTypeDto] }) data!: MeasurementTypeDto[];
}
