import { Module } from '@nestjs/common';
import { CriteriaModule } from '../criteria/criteria.module';
import { MailModule } from '../mail/mail.module';
import { ResearchModule } from '../research/research.module';
import { AlarmNotifier } from './alarm-notifier';
import { AlarmWatch } from './alarm-watch';
import { AlarmsController } from './alarms.controller';
import { AlarmsRepository } from './alarms.repository';
import { AlarmsService } from './alarms.service';

/**
 * Server-raised alarms of running tests (docs/behaviour.md, "Alarms"): the owner of a research raises and clears
 * them (AlarmWatch), any instance sends the messages it claims (AlarmNotifier), staff list and acknowledge them.
 */
@Module({
  imports: [CriteriaModule, ResearchModule, MailModule],
  controllers: [AlarmsController],
  providers: [AlarmsRepository, AlarmsService, AlarmWatch, AlarmNotifier],
  exports: [AlarmsService],
})
export class AlarmsModule {}
