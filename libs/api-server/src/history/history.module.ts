import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';
import { HistoryController } from './history.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

/** A research's stored readings: downsampled series for charts, the CSV and XLSX exports. */
@Module({ imports: [ResearchModule], controllers: [HistoryController], providers: [HistoryRepository, HistoryService, ExportRepository, ExportService], exports: [HistoryService] })
export class HistoryModule {}
