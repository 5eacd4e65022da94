import { Global, Module } from '@nestjs/common';
import { AuditService } from './audit.service';

/** The audit trail's writer, for every module that changes a test's record or a user's rights. */
@Global()
@Module({ providers: [AuditService], exports: [AuditService] })
export class AuditModule {}
