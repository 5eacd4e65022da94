import { ArchiveModule } from './archive/archive.module';
import { createSecretKey } from 'node:crypto';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { DataSource } from 'typeorm';
import { DataSource as DataSourceToken } from 'typeorm';
import type { ApiConfig } from '@furnace/config';
import type { Bus } from '@furnace/bus';
import type { Pino } from '@furnace/logger';
import { LoggerModule } from 'nestjs-pino';
import { AlarmsModule } from './alarms/alarms.module';
import { ALARM_OPTIONS, type AlarmOptions, DEFAULT_ALARM_OPTIONS } from './alarms/alarm-options';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { rateLimits } from './auth/login-throttler.guard';
import { deploymentOf, RedisThrottlerStorage } from './auth/redis-throttler-storage';
import { Revocations } from './auth/revocations';
import { CriteriaModule } from './criteria/criteria.module';
import { DrawingsModule } from './drawings/drawings.module';
import { FurnacesModule } from './furnaces/furnaces.module';
import { UnassignedModule } from './furnaces/unassigned.module';
import { HeavyWork } from './core/heavy-work';
import { ShutdownGate } from './core/shutdown-gate';
import { EmailsModule } from './emails/emails.module';
import { APP_CONFIG, BUS } from './core/tokens';
import { HealthModule } from './health/health.module';
import { HistoryModule } from './history/history.module';
import { LabModule } from './lab/lab.module';
import { LiveModule } from './live/live.module';
import { MailModule } from './mail/mail.module';
import { KEEPER_OPTIONS, type KeeperOptions } from './criteria/criteria-keeper';
import { MetricsModule } from './metrics/metrics.module';
import { ReplayModule } from './replay/replay.module';
import { ReportModule } from './report/report.module';
import { ResearchModule } from './research/research.module';
import { RecordModule } from './review/record.module';
import { ReviewModule } from './review/review.module';
import { ThermoModule } from './thermo/thermo.module';
import { UsersModule } from './users/users.module';

export interface ApiDeps {
  config: ApiConfig;
  dataSource: DataSource;
  bus: Bus;
  /** Where the throttles count; unset: Redis when REDIS_URL and DATABASE_URL are set, else memory. */
  throttlerStorage?: ThrottlerStorage;
  /** Timings of the kept criteria (tests shorten them); unset: CriteriaKeeper's defaults. */
  criteriaKeeper?: Partial<KeeperOptions>;
  /** Timings of the alarms (tests shorten them); unset: AlarmOptions' defaults. */
  alarms?: Partial<AlarmOptions>;
}

/** What every module may inject: the configuration, the database and the bus, made outside Nest. */
@Global()
@Module({})
class InfraModule {
  static register(deps: ApiDeps): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: deps.config },
      { provide: DataSourceToken, useValue: deps.dataSource },
      { provide: BUS, useValue: deps.bus },
      { provide: KEEPER_OPTIONS, useValue: deps.criteriaKeeper ?? null },
      { provide: ALARM_OPTIONS, useValue: { ...DEFAULT_ALARM_OPTIONS, ...(deps.alarms ?? {}) } },
      // Announces revoked access on the bus: users and e-mail records publish, live streams listen.
      { provide: Revocations, useClass: Revocations },
      ShutdownGate,
      // Caps the exports and reports running at once, per instance and per caller.
      HeavyWork,
    ];
    return { module: InfraModule, providers, exports: providers.map((p) => ('provide' in p ? p.provide : p)) };
  }
}

@Module({})
export class AppModule {
  static register(deps: ApiDeps, logger: Pino): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfraModule.register(deps),
        AuditModule,
        // pino-http runs as the first middleware (core/request-log.ts); nestjs-pino binds the logger it
        // gives each request to what is logged while the request runs.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true }),
        DiscoveryModule,
        // A KeyObject, not the string: given a string, jsonwebtoken first tries to read it as a PEM
        // public key (createPublicKey, which throws) on every verify, ~1 ms of CPU per request and per
        // stream connection; with the key object a verify costs ~20 µs.
        JwtModule.register({
          global: true,
          secret: createSecretKey(Buffer.from(deps.config.secretKey)),
          signOptions: { algorithm: 'HS256' },
        }),
        // Counted in Redis when the instances share one and a database (shared by every instance of the
        // deployment), else in this process's memory (the embedded system is one process).
        ThrottlerModule.forRoot({
          throttlers: rateLimits(deps.config),
          ...(deps.throttlerStorage
            ? { storage: deps.throttlerStorage }
            : deps.config.redisUrl && deps.config.databaseUrl
              ? { storage: new RedisThrottlerStorage(deps.config.redisUrl, deploymentOf(deps.config.databaseUrl)) }
              : {}),
        }),
        MailModule,
        UsersModule,
        AuthModule,
        HealthModule,
        LiveModule,
        LabModule,
        HistoryModule,
        MetricsModule,
        FurnacesModule,
        ResearchModule,
        EmailsModule,
        ThermoModule,
        DrawingsModule,
        CriteriaModule,
        ReplayModule,
        ReportModule,
        RecordModule,
        ReviewModule,
        ArchiveModule,
        UnassignedModule,
        AlarmsModule,
      ],
    };
  }
}
