import { Module } from '@nestjs/common';
import { LiveAccessService } from './live-access.service';
import { LiveGateway } from './live.gateway';
import { LiveRepository } from './live.repository';
import { LiveService } from './live.service';

/** The live stream: WebSocket /api/v1/research/dane/stream/{researchId}, fed by the bus. */
@Module({ providers: [LiveRepository, LiveService, LiveAccessService, LiveGateway], exports: [LiveService] })
export class LiveModule {}
