// @furnace/api-server/testing: the API's testing surface for the tests and benchmarks of other projects
// (test/, bench/), which reach a library through its entries only (docs/architecture.md, "Projects and
// their boundaries"). The API's own tests import these files by their paths.
export { auth, startTestApi, type TestApi } from './harness';
export { viewerTokenFor } from './live-support';
// Which instance keeps a research (the alarms' owner); a real SMTP server in the test process (the alarms' e-mails).
export { CriteriaKeeper } from '../src/criteria/criteria-keeper';
export { startTestSmtp, type TestSmtp } from './smtp';
// The archive's zip reader: what a benchmark reads back of an export.
export { entryBytes, zipEntries } from '../src/archive/zip-reader';
