import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorator';

@Injectable()
export class DatabaseIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly indicator: HealthIndicatorService,
  ) {}

  async check() {
    const session = this.indicator.check('database');
    try {
      await Promise.race([
        this.dataSource.query('SELECT 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 3 s')), 3000).unref()),
      ]);
      return session.up();
    } catch (e) {
      return session.down({ message: (e as Error).message });
    }
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: DatabaseIndicator,
  ) {}

  /** 200 when the database answers, 503 otherwise: for load balancers and start-up scripts. */
  @Get()
  @Public()
  @HealthCheck()
  check() {
    return this.health.check([() => this.db.check()]);
  }
}
