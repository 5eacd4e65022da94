import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { CriteriaController } from './criteria.controller';
import { CriteriaRepository } from './criteria.repository';
import { CriteriaService } from './criteria.service';

/** The fire-test criteria of a research: observations, thermocouple exclusions and the computed criteria. */
@Module({ imports: [ResearchModule], controllers: [CriteriaController], providers: [CriteriaRepository, CriteriaService], exports: [CriteriaService] })
export class CriteriaModule {}
