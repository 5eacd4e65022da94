import { type Bus, createBus } from '@furnace/bus';
import { TEST_REDIS_URL } from './mqtt';

/** The bus TEST_REDIS_URL names, or an in-process one of this test file when unset. */
export function testBus(): Promise<Bus> {
  return createBus(TEST_REDIS_URL);
}
