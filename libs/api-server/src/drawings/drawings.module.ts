import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { DrawingsController } from './drawings.controller';
import { DrawingsRepository } from './drawings.repository';
import { DrawingsService } from './drawings.service';

/** The drawings of a research's specimen (PDF or image), attached to its test report. */
@Module({
  imports: [ResearchModule],
  controllers: [DrawingsController],
  providers: [DrawingsRepository, DrawingsService],
  exports: [DrawingsService],
})
export class DrawingsModule {}
