import { Module } from '@nestjs/common';
import { AlarmsModule } from '../alarms/alarms.module';
import { CriteriaModule } from '../criteria/criteria.module';
import { LiveModule } from '../live/live.module';
import { ResearchModule } from '../research/research.module';
import { UsersModule } from '../users/users.module';
import { LabController } from './lab.controller';
import { LabGateway } from './lab.gateway';
import { LAB_OPTIONS, LabOverview } from './lab-overview.service';
import { LabRepository } from './lab.repository';
import { LabViewers } from './lab-viewers';

/** The lab overview: WebSocket /api/v1/lab/stream, one tile per furnace, and its tickets (docs/behaviour.md §18). */
@Module({
  imports: [LiveModule, CriteriaModule, AlarmsModule, ResearchModule, UsersModule],
  controllers: [LabController],
  providers: [LabRepository, LabViewers, LabOverview, LabGateway, { provide: LAB_OPTIONS, useValue: null }],
})
export class LabModule {}
