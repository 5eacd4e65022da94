import { Module } from '@nestjs/common';
import { AlarmsModule } from '../alarms/alarms.module';
import { CriteriaModule } from '../criteria/criteria.module';
import { DrawingsModule } from '../drawings/drawings.module';
import { HistoryModule } from '../history/history.module';
import { ResearchModule } from '../research/research.module';
import { ThermoModule } from '../thermo/thermo.module';
import { ReportController } from './report.controller';
import { ReportRenderer } from './report-renderer';
import { ReportService } from './report.service';

/** The test report and the classification report as PDFs, from the research, criteria, history, thermocouple and drawings services. */
@Module({
  imports: [ResearchModule, CriteriaModule, HistoryModule, ThermoModule, DrawingsModule, AlarmsModule],
  controllers: [ReportController],
  providers: [ReportService, ReportRenderer],
  exports: [ReportService],
})
export class ReportModule {}
