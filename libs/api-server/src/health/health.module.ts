import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseIndicator, HealthController } from './health.controller';

@Module({ imports: [TerminusModule], controllers: [HealthController], providers: [DatabaseIndicator] })
export class HealthModule {}
