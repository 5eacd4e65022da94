import { Module } from '@nestjs/common';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';
import { HistoryController } from './history.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

/** A research's stored readings: downsampled series for charts, the CSV and XLSX exports. */
@Module({ controllers: [HistoryController], providers: [HistoryRepository, HistoryService, ExportRepository, ExportService], exports: [HistoryService] })
export class HistoryModule {}
