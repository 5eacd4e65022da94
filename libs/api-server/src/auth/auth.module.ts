import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { AccessGuard } from './access.guard';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CallerService } from './caller.service';
import { CodeAttempts } from './code-attempts';
import { PublicConfigController } from './public-config.controller';
import { LoginThrottlerGuard } from './login-throttler.guard';
import { ResearchOwnershipRepository } from './research-ownership.repository';
import { TokenService } from './token.service';

@Global()
@Module({
  imports: [UsersModule, MailModule],
  controllers: [AuthController, PublicConfigController],
  providers: [
    TokenService,
    AuthService,
    CallerService,
    CodeAttempts,
    AccessGuard,
    ResearchOwnershipRepository,
    LoginThrottlerGuard,
    { provide: APP_GUARD, useExisting: AccessGuard },
  ],
  exports: [TokenService, CallerService, CodeAttempts, ResearchOwnershipRepository],
})
export class AuthModule {}
