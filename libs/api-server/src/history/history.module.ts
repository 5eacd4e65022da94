import { Module } from '@nestjs/common';
import { CriteriaModule } from '../criteria/criteria.module';
import { ResearchModule } from '../research/research.module';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';
import { HistoryController } from './history.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';
import { RollupRefresher } from './rollup-refresher';

/** A research's stored readings: downsampled series for charts, the CSV and XLSX exports, the category rollups' refresh. */
@Module({
  imports: [ResearchModule, CriteriaModule],
  controllers: [HistoryController],
  providers: [HistoryRepository, HistoryService, ExportRepository, ExportService, RollupRefresher],
  exports: [HistoryService],
})
export class HistoryModule {}
