/*
 * Imported first by bench/main.ts, before any test helper reads its environment: BENCH_DATABASE_URL,
 * BENCH_REDIS_URL and BENCH_MQTT_URL (or the TEST_* ones the tests use) name the machine's servers.
 * The test helpers this benchmark reuses (createTestDatabase, startTestBroker) read TEST_*; a name
 * left unset there means the embedded equivalent.
 */
for (const name of ['DATABASE_URL', 'REDIS_URL', 'MQTT_URL']) {
  const url = process.env[`BENCH_${name}`] || process.env[`TEST_${name}`] || '';
  process.env[`TEST_${name}`] = url;
}

export const configured = {
  database: process.env.TEST_DATABASE_URL || undefined,
  redis: process.env.TEST_REDIS_URL || undefined,
  mqtt: process.env.TEST_MQTT_URL || undefined,
};
