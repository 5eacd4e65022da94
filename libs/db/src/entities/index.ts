import { AuditEntryEntity } from './audit-entry.entity';
import { CriteriaStateEntity } from './criteria-state.entity';
import { ObservationEntity } from './observation.entity';
import { ReadingDeadLetterEntity } from './reading-dead-letter.entity';
import { ReadingEntity } from './reading.entity';
import { ResearchDrawingEntity } from './research-drawing.entity';
import { ResearchEmailEntity } from './research-email.entity';
import { ResearchUrlEntity } from './research-url.entity';
import { ResearchEntity } from './research.entity';
import { StreamTicketEntity } from './stream-ticket.entity';
import { ThermoConfigEntity } from './thermo-config.entity';
import { ThermoExclusionEntity } from './thermo-exclusion.entity';
import { ThermoMarkerEntity } from './thermo-marker.entity';
import { UserEntity } from './user.entity';

export {
  AuditEntryEntity,
  CriteriaStateEntity,
  ObservationEntity,
  ThermoExclusionEntity,
  ReadingDeadLetterEntity,
  ReadingEntity,
  ResearchDrawingEntity,
  ResearchEmailEntity,
  ResearchEntity,
  ResearchUrlEntity,
  StreamTicketEntity,
  ThermoConfigEntity,
  ThermoMarkerEntity,
  UserEntity,
};

export const entities = [
  AuditEntryEntity,
  CriteriaStateEntity,
  UserEntity,
  ResearchEntity,
  ResearchUrlEntity,
  ResearchEmailEntity,
  ResearchDrawingEntity,
  ThermoConfigEntity,
  ThermoMarkerEntity,
  ReadingEntity,
  ReadingDeadLetterEntity,
  StreamTicketEntity,
  ObservationEntity,
  ThermoExclusionEntity,
];
