import { Module } from '@nestjs/common';
import { EmailsController } from '../emails/emails.controller';
import { EmailsRepository } from '../emails/emails.repository';
import { EmailsService } from '../emails/emails.service';
import { MailModule } from '../mail/mail.module';
import { ThermoController } from '../thermo/thermo.controller';
import { ThermoRepository } from '../thermo/thermo.repository';
import { ThermoService } from '../thermo/thermo.service';
import { ResearchEvents } from './research-events';
import { ResearchController } from './research.controller';
import { ResearchRepository } from './research.repository';
import { ResearchService } from './research.service';

/** A research and what hangs off it: stream links, clients' e-mails, thermocouple configs. */
@Module({
  imports: [MailModule],
  controllers: [ResearchController, EmailsController, ThermoController],
  providers: [ResearchRepository, ResearchService, ResearchEvents, EmailsRepository, EmailsService, ThermoRepository, ThermoService],
  exports: [ResearchService, ResearchEvents],
})
export class ResearchModule {}
