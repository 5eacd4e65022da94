// Load test of the REST API as staff use it: sign in, list the researches, read a research's
// history downsampled to 1000 points per series (what the history chart asks for).
//
//   k6 run -e BASE_URL=https://furnace.example.com -e FURNACE_EMAIL=… -e FURNACE_PASSWORD=… \
//          [-e RESEARCH_ID=<id>] infra/k6/rest.ts
//
// Without RESEARCH_ID the first research of the list is read (the newest). README: "Load tests (k6)".
import { check, fail, sleep } from 'k6';
import http from 'k6/http';
import type { Options } from 'k6/options';
import {
  apiUrl,
  authHeaders,
  durationSeconds,
  field,
  login,
  numberEnv,
  optionalEnv,
  researchIds,
  safeJson,
  staffCredentials,
} from './lib/furnace.ts';

const USERS = Math.floor(numberEnv('USERS', 20));
const RAMP = optionalEnv('RAMP', '1m');
const HOLD = optionalEnv('HOLD', '5m');
/** Seconds a user waits between two page loads. */
const THINK = numberEnv('THINK', 1);
const POINTS = Math.floor(numberEnv('POINTS', 1000));
/**
 * Sign-ins per minute. The API allows LOGIN_RATE_LIMIT (default 10) attempts per minute per
 * address and account, and all of k6's come from one address with one account: stay below it.
 */
const LOGINS_PER_MINUTE = numberEnv('LOGINS_PER_MINUTE', 4);

export const options: Options = {
  scenarios: {
    browse: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: RAMP, target: USERS },
        { duration: HOLD, target: USERS },
        { duration: optionalEnv('RAMP_DOWN', '30s'), target: 0 },
      ],
      gracefulRampDown: '10s',
      exec: 'browse',
    },
    login: {
      executor: 'constant-arrival-rate',
      rate: LOGINS_PER_MINUTE,
      timeUnit: '1m',
      duration: `${durationSeconds(RAMP) + durationSeconds(HOLD)}s`,
      preAllocatedVUs: 2,
      exec: 'signIn',
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:research-list}': [`p(95)<${numberEnv('LIST_P95_MS', 300)}`],
    'http_req_duration{name:research-history}': [`p(95)<${numberEnv('HISTORY_P95_MS', 1000)}`],
    // argon2id is slow on purpose; this bounds the queueing behind it.
    'http_req_duration{name:login}': [`p(95)<${numberEnv('LOGIN_P95_MS', 2000)}`],
    checks: ['rate>0.99'],
  },
};

interface Session {
  token: string;
  researchId: string;
}

export function setup(): Session {
  const { email, password } = staffCredentials();
  const token = login(email, password);
  if (!token) fail('login failed: check FURNACE_EMAIL and FURNACE_PASSWORD');
  const given = optionalEnv('RESEARCH_ID', '');
  if (given !== '') return { token, researchId: researchIds(given)[0] as string };
  const first = field(listResearches(token)[0], 'id');
  if (typeof first !== 'string') fail('no research to read the history of: create one, or set RESEARCH_ID');
  return { token, researchId: first };
}

export function browse(session: Session): void {
  listResearches(session.token);
  const res = http.get(apiUrl(`/research/${session.researchId}/history?points=${POINTS}`), {
    headers: authHeaders(session.token),
    tags: { name: 'research-history' },
  });
  const body = res.status === 200 ? safeJson(res.body) : null;
  const time = field(body, 'time');
  const series = field(body, 'series');
  check(res, {
    'history: 200': (r) => r.status === 200,
    [`history: at most ${POINTS} points`]: () => Array.isArray(time) && time.length <= POINTS,
    'history: series listed': () => Array.isArray(series),
  });
  sleep(THINK);
}

export function signIn(): void {
  const { email, password } = staffCredentials();
  login(email, password);
}

function listResearches(token: string) {
  const res = http.get(apiUrl('/research'), { headers: authHeaders(token), tags: { name: 'research-list' } });
  const data = field(res.status === 200 ? safeJson(res.body) : null, 'data');
  check(res, {
    'list: 200': (r) => r.status === 200,
    'list: researches listed': () => Array.isArray(data),
  });
  return Array.isArray(data) ? data : [];
}

export default browse;
