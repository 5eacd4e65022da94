import { AlarmDeliveryEntity } from './alarm-delivery.entity';
import { AlarmEntity } from './alarm.entity';
import { AuditEntryEntity } from './audit-entry.entity';
import { CriteriaStateEntity } from './criteria-state.entity';
import { FurnaceReadingEntity } from './furnace-reading.entity';
import { FurnaceDaqCredentialEntity } from './furnace-daq-credential.entity';
import { FurnaceEntity } from './furnace.entity';
import { ObservationEntity } from './observation.entity';
import { ReadingDeadLetterEntity } from './reading-dead-letter.entity';
import { ReadingEntity } from './reading.entity';
import { ResearchDocumentEntity } from './research-document.entity';
import { ResearchDrawingEntity } from './research-drawing.entity';
import { ResearchEmailEntity } from './research-email.entity';
import { ResearchRevisionEntity } from './research-revision.entity';
import { ResearchUrlEntity } from './research-url.entity';
import { ResearchEntity } from './research.entity';
import { StreamTicketEntity } from './stream-ticket.entity';
import { ThermoConfigEntity } from './thermo-config.entity';
import { ThermoExclusionEntity } from './thermo-exclusion.entity';
import { ThermoMarkerEntity } from './thermo-marker.entity';
import { UserEntity } from './user.entity';

export {
  AlarmDeliveryEntity,
  AlarmEntity,
  AuditEntryEntity,
  CriteriaStateEntity,
  FurnaceDaqCredentialEntity,
  FurnaceEntity,
  FurnaceReadingEntity,
  ObservationEntity,
  ThermoExclusionEntity,
  ReadingDeadLetterEntity,
  ReadingEntity,
  ResearchDocumentEntity,
  ResearchDrawingEntity,
  ResearchEmailEntity,
  ResearchEntity,
  ResearchRevisionEntity,
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
  FurnaceEntity,
  FurnaceDaqCredentialEntity,
  ResearchEntity,
  ResearchUrlEntity,
  ResearchEmailEntity,
  ResearchDrawingEntity,
  ResearchRevisionEntity,
  ResearchDocumentEntity,
  ThermoConfigEntity,
  ThermoMarkerEntity,
  ReadingEntity,
  ReadingDeadLetterEntity,
  FurnaceReadingEntity,
  StreamTicketEntity,
  ObservationEntity,
  ThermoExclusionEntity,
  AlarmEntity,
  AlarmDeliveryEntity,
];
