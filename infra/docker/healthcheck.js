// Health check of the API and ingest images (they have no curl or wget): exits 0 when GET <url>
// answers 2xx within 4 s, 1 otherwise. Used by the Dockerfiles' HEALTHCHECK and docker-compose.yml.
const url = process.argv[2];
if (!url) {
  console.error('usage: node healthcheck.js <url>');
  process.exit(2);
}
fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
