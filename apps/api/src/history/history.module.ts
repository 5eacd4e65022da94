import { Module } from '@nestjs/common';
import { HistoryController } from './history.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

/** A research's stored readings: downsampled series for charts, raw rows as CSV. */
@Module({ controllers: [HistoryController], providers: [HistoryRepository, HistoryService] })
export class HistoryModule {}
