import { Module } from '@nestjs/common';
import { CriteriaModule } from '../criteria/criteria.module';
import { HistoryModule } from '../history/history.module';
import { ResearchModule } from '../research/research.module';
import { ThermoModule } from '../thermo/thermo.module';
import { ReportController } from './report.controller';
import { ReportRenderer } from './report-renderer';
import { ReportService } from './report.service';

/** The test report as a PDF, from the criteria, history and thermocouple services. */
@Module({ imports: [ResearchModule, CriteriaModule, HistoryModule, ThermoModule], controllers: [ReportController], providers: [ReportService, ReportRenderer] })
export class ReportModule {}
