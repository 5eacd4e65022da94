// @furnace/ingest/testing: the ingest's testing surface for the tests and benchmarks of other projects
// (test/, bench/), which reach a library through its entries only (docs/architecture.md, "Projects and
// their boundaries"). The ingest's own tests import these files by their paths.
export { ingestConfig, ingestFor, metricValue, startTestIngest, useTestEnvironment } from './support';
// The write path's parts, driven without a broker: the rollup tests write frames with the ingest's own
// insert, the ingest benchmark feeds IngestService directly and copies readings as the ingest writes them.
export { IngestService } from '../src/ingest.service';
export { IngestMetrics } from '../src/metrics';
export { ReadingsRepository, realArrayLiteral } from '../src/readings.repository';
export { ResearchDirectory } from '../src/research-directory';
