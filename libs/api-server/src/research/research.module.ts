import { Module } from '@nestjs/common';
import { FurnacesModule } from '../furnaces/furnaces.module';
import { ResearchEvents } from './research-events';
import { ResearchController } from './research.controller';
import { ResearchRepository } from './research.repository';
import { ResearchService } from './research.service';

/** A research: its fields, its stream links and its viewer tokens; the events of its changes. */
@Module({
  imports: [FurnacesModule],
  controllers: [ResearchController],
  providers: [ResearchRepository, ResearchService, ResearchEvents],
  exports: [ResearchService, ResearchEvents],
})
export class ResearchModule {}
