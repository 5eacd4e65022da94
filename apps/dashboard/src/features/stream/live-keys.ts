import { type ReadAuth, readAuthKey } from './read-auth';

/**
 * Query keys of what the live view reads. Every key carries the read auth (a viewer's and staff's
 * caches never mix) and the research, so one research's reads are invalidated together.
 */
export const liveKeys = {
  all: ['live'] as const,
  scope: (auth: ReadAuth, researchId: string) => [...liveKeys.all, readAuthKey(auth), researchId] as const,
  /** GET …/live-view, read once per opening of a live screen: its answer seeds the keys below. */
  bootstrap: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'bootstrap'] as const,
  research: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'research'] as const,
  urls: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'urls'] as const,
  /** Configs and markers share this prefix: a THERMOCOUPLE update refetches both. */
  thermo: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'thermo'] as const,
  configs: (auth: ReadAuth, researchId: string) => [...liveKeys.thermo(auth, researchId), 'configs'] as const,
  markers: (auth: ReadAuth, researchId: string) => [...liveKeys.thermo(auth, researchId), 'markers'] as const,
  /** The observations staff recorded (a viewer gets the visible ones): refetched on UPDATE OBSERVATION. */
  observations: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'observations'] as const,
  /** Thermocouple exclusions: refetched on UPDATE RESEARCH with the research. */
  exclusions: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'exclusions'] as const,
  /** The research's alarms (staff only): refetched on every ALARM message. */
  alarms: (auth: ReadAuth, researchId: string) => [...liveKeys.scope(auth, researchId), 'alarms'] as const,
  /** A config's photo never changes (a new photo is a new config): outside the 'thermo' prefix. */
  image: (auth: ReadAuth, researchId: string, configId: string) =>
    [...liveKeys.scope(auth, researchId), 'image', configId] as const,
  viewerToken: (researchId: string, code: string) => [...liveKeys.all, 'viewer-token', researchId, code] as const,
};
