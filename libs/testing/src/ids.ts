import { randomBytes } from 'node:crypto';

/**
 * A name no other test file uses (research names, MQTT client ids, shared-subscription groups), so
 * files run in parallel against the same Mosquitto and Redis.
 */
export const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
