import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { CriteriaKeeper } from './criteria-keeper';
import { CriteriaStateRepository } from './criteria-state.repository';
import { CriteriaController } from './criteria.controller';
import { CriteriaRepository } from './criteria.repository';
import { CriteriaService } from './criteria.service';

/**
 * The fire-test criteria of a research: observations, thermocouple exclusions, and the criteria kept
 * as the frames are stored (CriteriaKeeper).
 */
@Module({
  imports: [ResearchModule],
  controllers: [CriteriaController],
  providers: [CriteriaRepository, CriteriaStateRepository, CriteriaKeeper, CriteriaService],
  exports: [CriteriaService, CriteriaKeeper],
})
export class CriteriaModule {}
