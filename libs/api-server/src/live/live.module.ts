import { Module } from '@nestjs/common';
import { CriteriaModule } from '../criteria/criteria.module';
import { UsersModule } from '../users/users.module';
import { LiveAccessService } from './live-access.service';
import { LiveGateway } from './live.gateway';
import { LiveRepository } from './live.repository';
import { LiveService } from './live.service';
import { StreamTicketController } from './stream-ticket.controller';
import { StreamTickets } from './stream-tickets';

/** The live stream: WebSocket /api/v1/research/dane/stream/{researchId}, fed by the bus; its single-use tickets. */
@Module({
  imports: [UsersModule, CriteriaModule],
  controllers: [StreamTicketController],
  providers: [LiveRepository, LiveService, LiveAccessService, LiveGateway, StreamTickets],
  exports: [LiveService],
})
export class LiveModule {}
