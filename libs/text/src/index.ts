export * from './catalogue';
export type { AuditTranslation } from './audit.pl';
export type { CriteriaTranslation } from './criteria.pl';
export type { EditorTranslation } from './editor.pl';
export type { HistoryTranslation } from './history.pl';
export type { LabTranslation } from './lab.pl';
export type { LiveTranslation } from './live.pl';
export type { ReviewTranslation } from './review.pl';
export type { Translation } from './translation.pl';
