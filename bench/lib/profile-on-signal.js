// Preloaded (`node -r`) into a server under test when the benchmark profiles it: SIGWINCH (ignored by
// default, and not one of the signals Nest shuts down on) starts the
// V8 CPU profiler, the next SIGWINCH stops it and writes the profile to $BENCH_PROFILE_DIR, so a
// profile covers one measured case and not the start-up or the viewers' connections.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Session } = require('node:inspector');

const session = new Session();
session.connect();
let running = false;
let count = 0;
process.on('SIGWINCH', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    const file = join(
      process.env.BENCH_PROFILE_DIR || '.',
      `${process.env.BENCH_PROFILE_NAME || 'server'}-${++count}.cpuprofile`,
    );
    writeFileSync(file, JSON.stringify(result.profile));
  });
});
