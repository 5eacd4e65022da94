import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { PasswordHasher } from './password-hasher';
import { SignupNotice } from './signup-notice';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [MailModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, PasswordHasher, SignupNotice],
  exports: [UsersRepository, UsersService],
})
export class UsersModule {}
