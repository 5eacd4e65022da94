import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { FurnacesModule } from './furnaces.module';
import { UnassignedController } from './unassigned.controller';
import { UnassignedRepository } from './unassigned.repository';
import { UnassignedService } from './unassigned.service';

/** A furnace's unassigned readings (its own module: it needs the research's events, and ResearchModule imports FurnacesModule). */
@Module({
  imports: [FurnacesModule, ResearchModule],
  controllers: [UnassignedController],
  providers: [UnassignedRepository, UnassignedService],
})
export class UnassignedModule {}
