import { Global, Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit trail: its writer, for every module that changes a test's record or a user's rights, and its reading routes. */
@Global()
@Module({ controllers: [AuditController], providers: [AuditService, AuditRepository], exports: [AuditService] })
export class AuditModule {}
