import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { ThermoController } from './thermo.controller';
import { ThermoMarkersRepository } from './thermo-markers.repository';
import { ThermoRepository } from './thermo.repository';
import { ThermoService } from './thermo.service';

/** A research's thermocouple configs: the specimen photo with the markers placed on it, and the measurement types. */
@Module({
  imports: [ResearchModule],
  controllers: [ThermoController],
  providers: [ThermoRepository, ThermoMarkersRepository, ThermoService],
  exports: [ThermoService],
})
export class ThermoModule {}
