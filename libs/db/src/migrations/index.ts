import type { MigrationInterface } from 'typeorm';
import { Init1795313029028 } from './1795313029028-Init';
import { Readings1795313545775 } from './1795313545775-Readings';
import { StreamTicketsAndTokenVersion1796000000000 } from './1796000000000-StreamTicketsAndTokenVersion';
import { ReadingRollups1796200000000 } from './1796200000000-ReadingRollups';
import { CriteriaProfile1796300000000 } from './1796300000000-CriteriaProfile';
import { CategoryRollupExclusions1796400000000 } from './1796400000000-CategoryRollupExclusions';
import { CriteriaState1796500000000 } from './1796500000000-CriteriaState';
import { RollupRefreshQueue1796600000000 } from './1796600000000-RollupRefreshQueue';
import { ClassificationToClients1796700000000 } from './1796700000000-ClassificationToClients';
import { ReportFields1796800000000 } from './1796800000000-ReportFields';
import { ThermoMarkerZone1796900000000 } from './1796900000000-ThermoMarkerZone';
import { AuditTrail1797000000000 } from './1797000000000-AuditTrail';
import { ResearchArchive1797100000000 } from './1797100000000-ResearchArchive';
import { PermanentRecord1797200000000 } from './1797200000000-PermanentRecord';
import { ResearchImport1797300000000 } from './1797300000000-ResearchImport';
import { Furnaces1797400000000 } from './1797400000000-Furnaces';
import { ResearchEmailLang1797500000000 } from './1797500000000-ResearchEmailLang';
import { FurnaceReadings1797600000000 } from './1797600000000-FurnaceReadings';
import { DaqCredentials1797700000000 } from './1797700000000-DaqCredentials';
import { Alarms1797800000000 } from './1797800000000-Alarms';
import { LabStreamTickets1797900000000 } from './1797900000000-LabStreamTickets';

// Migrations are the only way the schema changes; list each new one here, in order.
// `npm run db:migration:generate -- <Name>` writes one from the entities' difference.
export const migrations: (new () => MigrationInterface)[] = [
  Init1795313029028,
  Readings1795313545775,
  StreamTicketsAndTokenVersion1796000000000,
  ReadingRollups1796200000000,
  CriteriaProfile1796300000000,
  CategoryRollupExclusions1796400000000,
  CriteriaState1796500000000,
  RollupRefreshQueue1796600000000,
  ClassificationToClients1796700000000,
  ReportFields1796800000000,
  ThermoMarkerZone1796900000000,
  AuditTrail1797000000000,
  ResearchArchive1797100000000,
  PermanentRecord1797200000000,
  ResearchImport1797300000000,
  Furnaces1797400000000,
  ResearchEmailLang1797500000000,
  FurnaceReadings1797600000000,
  DaqCredentials1797700000000,
  Alarms1797800000000,
  LabStreamTickets1797900000000,
];
