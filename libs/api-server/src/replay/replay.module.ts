import { Module } from '@nestjs/common';
import { ReplayController } from './replay.controller';
import { ReplayRepository } from './replay.repository';
import { ReplayService } from './replay.service';

/** Stored frames of a research, window by window, for the replay of a test. */
@Module({ controllers: [ReplayController], providers: [ReplayRepository, ReplayService] })
export class ReplayModule {}
