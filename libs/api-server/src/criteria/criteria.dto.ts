import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CRITERIA_BASES } from '@furnace/criteria';

/*
 * The response of GET /research/{id}/criteria: the criteria engine's CriteriaSnapshot
 * (@furnace/contracts) as OpenAPI classes, plus what only the server knows (ended, ignition_at).
 */

const nullableNumber = (description?: string) => ApiProperty({ type: Number, nullable: true, description });

export class LimitViewDto {
  @nullableNumber('Rise in K above T0; null on the absolute basis') k!: number | null;
  @ApiProperty({ description: 'Threshold, °C' }) c!: number;
  @ApiProperty({ example: 'T0 + 180 K = 200.3 °C' }) text!: string;
}

export class CriteriaLimitsDto {
  @ApiProperty({ type: LimitViewDto, nullable: true }) mean!: LimitViewDto | null;
  @ApiProperty({ type: LimitViewDto, nullable: true }) max!: LimitViewDto | null;
  @ApiProperty({ type: LimitViewDto, nullable: true }) frame!: LimitViewDto | null;
}

export class TypeRoleDto {
  @ApiProperty() mean!: boolean;
  @ApiProperty() max!: boolean;
  @ApiProperty() frame!: boolean;
}

export class CategoryViewDto {
  @ApiProperty() type_name!: string;
  @ApiProperty({ type: TypeRoleDto }) role!: TypeRoleDto;
  @nullableNumber('°C over the valid thermocouples') max!: number | null;
  @nullableNumber('°C over the valid thermocouples') mean!: number | null;
  @nullableNumber('K above T0') max_rise!: number | null;
  @nullableNumber('K above T0') mean_rise!: number | null;
  @ApiProperty({ type: 'integer', description: 'Thermocouples counted at the newest frame' }) valid!: number;
  @ApiProperty({ type: 'integer', description: 'Thermocouples of the category on the specimen' })
  thermocouples!: number;
}

export class TolerancePeriodDto {
  @ApiProperty({ description: 'Seconds since ignition: the first frame outside the tolerance' }) from!: number;
  @ApiProperty({ description: 'Seconds: the last frame outside (so far, while open)' }) to!: number;
  @ApiProperty({ description: 'Still outside at the newest judged frame' }) open!: boolean;
  @ApiProperty({
    description: 'The value at the frame furthest outside (d_e in %; pressure minus target in Pa), signed',
  })
  worst!: number;
  @ApiProperty({ description: 'The tolerance (±) at that frame' }) worst_tolerance!: number;
  @ApiProperty({ description: 'Seconds: that frame' }) worst_time!: number;
}

export class DeviationDto {
  @nullableNumber('d_e, percent, at the newest frame (at the stop once the test was stopped)') d_e!: number | null;
  @nullableNumber('Tolerance at that frame, percent; null up to 5 min') tolerance!: number | null;
  @ApiProperty({ type: Boolean, nullable: true, description: 'd_e within its tolerance at that frame' }) ok!:
    boolean | null;
  @ApiProperty({
    type: [TolerancePeriodDto],
    description: 'Every period with d_e outside its tolerance (EN 1363-1 §5.1.2), in time order',
  })
  periods!: TolerancePeriodDto[];
  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'The verdict: false once d_e was outside its tolerance at any frame; null before one was judged',
  })
  conforming!: boolean | null;
}

export class PressureDto {
  @ApiProperty({ description: 'Target, Pa' }) target!: number;
  @nullableNumber('The newest reading, Pa') value!: number | null;
  @nullableNumber(
    "± Pa at the newest reading (EN 1363-1 §5.2.2: 5 from 5 min, 3 from 10 min, or the profile's own); null before 5 min",
  )
  tolerance!: number | null;
  @ApiProperty({ type: Boolean, nullable: true }) ok!: boolean | null;
  @ApiProperty({ type: [TolerancePeriodDto] }) periods!: TolerancePeriodDto[];
  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'false once the pressure was outside its band at any frame',
  })
  conforming!: boolean | null;
}

export class FailureDto {
  @ApiProperty({ enum: ['I_mean', 'I_max', 'I_frame', 'W'] }) criterion!: 'I_mean' | 'I_max' | 'I_frame' | 'W';
  @ApiProperty({ description: 'Seconds since ignition' }) time!: number;
  @nullableNumber('Set when a gap > 60 s makes the failure time the interval (interval_from, time]') interval_from!:
    number | null;
  @ApiProperty({ type: 'integer', nullable: true }) thermo_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) type_name!: string | null;
  @ApiPropertyOptional({
    enum: ['I1', 'I2'],
    description: "A zoned door's leaf or frame failure: the insulation class it counts for",
  })
  insulation_class?: 'I1' | 'I2';
}

export class ExcursionDto {
  @ApiProperty() criterion!: string;
  @ApiProperty() time!: number;
  @ApiProperty({ type: 'integer', nullable: true }) thermo_id!: number | null;
}

export class CriterionResultDto {
  @nullableNumber('Seconds since ignition at which it failed; null: not reached') time!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Completed minutes that count for the classification' })
  minutes!: number | null;
  @ApiProperty() reached!: boolean;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Live: completed minutes held so far; null when not measured',
  })
  held_minutes!: number | null;
  @ApiProperty({
    description: 'false when nothing measured it (I: no thermocouple counts for insulation; W: no radiation reading)',
  })
  measured!: boolean;
  @ApiProperty({ description: "W only: not measured, deemed met while I holds (EN 13501-2); its minutes are I's" })
  deemed!: boolean;
}

export class CriteriaResultsDto {
  @ApiProperty({ type: CriterionResultDto }) E!: CriterionResultDto;
  @ApiProperty({ type: CriterionResultDto }) I!: CriterionResultDto;
  @ApiProperty({ type: CriterionResultDto }) W!: CriterionResultDto;
}

export class InsulationClassesDto {
  @ApiProperty({ type: CriterionResultDto }) I1!: CriterionResultDto;
  @ApiProperty({ type: CriterionResultDto }) I2!: CriterionResultDto;
}

export class ForecastDto {
  @ApiProperty({ enum: ['I_mean', 'I_max', 'I_frame'] }) criterion!: 'I_mean' | 'I_max' | 'I_frame';
  @ApiProperty({ description: 'Seconds from the newest frame until the limit at the current rate' }) eta_s!: number;
  @ApiProperty({ description: 'K per minute over the last 5 minutes' }) rate_k_per_min!: number;
  @ApiPropertyOptional({ description: 'Seconds since ignition at which the limit is reached' }) at_s?: number;
}

export class SuspectDto {
  @ApiProperty({ type: 'integer' }) thermo_id!: number;
  @ApiProperty({ enum: ['jump', 'below_t0', 'stuck', 'fault'] }) reason!: 'jump' | 'below_t0' | 'stuck' | 'fault';
  @ApiProperty() time!: number;
}

export class CriteriaDto {
  @nullableNumber('T0, °C: the initial mean temperature of the unexposed face') t0!: number | null;
  @ApiProperty({ enum: ['auto', 'first_frame', 'override'], nullable: true, type: String }) t0_source!:
    'auto' | 'first_frame' | 'override' | null;
  @nullableNumber('Time of the newest frame, s') elapsed!: number | null;
  @ApiProperty({ enum: CRITERIA_BASES }) basis!: 'rise' | 'absolute';
  @ApiProperty({ type: CriteriaLimitsDto }) limits!: CriteriaLimitsDto;
  @ApiProperty({ type: [CategoryViewDto] }) categories!: CategoryViewDto[];
  @ApiProperty({ type: DeviationDto }) deviation!: DeviationDto;
  @ApiProperty({ type: PressureDto, nullable: true, description: 'null when the profile sets no pressure target' })
  pressure!: PressureDto | null;
  @ApiProperty({ type: [FailureDto] }) failures!: FailureDto[];
  @ApiProperty({ type: [ExcursionDto], description: 'Single-scan excursions over a limit: not failures' })
  excursions!: ExcursionDto[];
  @ApiProperty({ type: CriteriaResultsDto, description: "I is the profile's insulation class" })
  criteria!: CriteriaResultsDto;
  @ApiProperty({
    type: InsulationClassesDto,
    nullable: true,
    description:
      'An EN 1634-1 door whose thermocouples name their zones: I1 and I2 each judged on its own thermocouples; null otherwise',
  })
  insulation_classes!: InsulationClassesDto | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'E 60, EI 45, EW 60',
    description:
      "The class in the standard's own notation from the element's own period lists (EN 13501-2; DIN 4102-5: 'T 30'); null before ignition, and for a client when staff do not show clients the classification",
  })
  classification!: string | null;
  @ApiProperty({
    description:
      'Staff chose not to show clients the classification: classification and E/I/W minutes are null in this (client) view',
  })
  classification_withheld!: boolean;
  @ApiProperty({ type: [ForecastDto], description: 'Only criteria less than 15 minutes away' })
  forecast!: ForecastDto[];
  @ApiProperty({ type: [SuspectDto] }) suspects!: SuspectDto[];
  @ApiProperty({ type: [Number], description: 'thermo_ids excluded at the newest frame' }) excluded!: number[];
  @ApiProperty({
    description:
      'The test is over (past end_at, or a test_stopped observation): criteria not reached are "not reached"',
  })
  ended!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "Wall-clock time of ignition (time 0), from the frames' own timestamps (the DAQ's ts, else receipt time); null when no frame has one",
  })
  ignition_at!: string | null;
}
