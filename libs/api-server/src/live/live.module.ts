import { Module } from '@nestjs/common';
import { CriteriaModule } from '../criteria/criteria.module';
import { HistoryModule } from '../history/history.module';
import { ResearchModule } from '../research/research.module';
import { ThermoModule } from '../thermo/thermo.module';
import { UsersModule } from '../users/users.module';
import { LiveAccessService } from './live-access.service';
import { LiveGateway } from './live.gateway';
import { LiveRepository } from './live.repository';
import { LiveService } from './live.service';
import { LiveViewController } from './live-view.controller';
import { LiveViewService } from './live-view.service';
import { StreamTicketController } from './stream-ticket.controller';
import { StreamTickets } from './stream-tickets';

/**
 * The live stream: WebSocket /api/v1/research/dane/stream/{researchId}, fed by the bus; its single-use
 * tickets; what a live view reads before its stream opens, in one request (GET …/live-view).
 */
@Module({
  imports: [UsersModule, CriteriaModule, ResearchModule, ThermoModule, HistoryModule],
  controllers: [StreamTicketController, LiveViewController],
  providers: [LiveRepository, LiveService, LiveAccessService, LiveGateway, StreamTickets, LiveViewService],
  exports: [LiveService, StreamTickets],
})
export class LiveModule {}
