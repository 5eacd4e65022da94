import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { ResearchModule } from '../research/research.module';
import { EmailsController } from './emails.controller';
import { EmailsRepository } from './emails.repository';
import { EmailsService } from './emails.service';

/** A research's clients: their e-mail records (each one's id is the client's access code) and invitations. */
@Module({
  imports: [ResearchModule, MailModule],
  controllers: [EmailsController],
  providers: [EmailsRepository, EmailsService],
})
export class EmailsModule {}
