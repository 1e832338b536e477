// Profiles the session service over a bench's measured window only (not start-up or the joins):
//   PROF=1 NODE_OPTIONS="--import ./load-tests/bench/profile-hook.mjs" npx tsx load-tests/bench/many-drafts.ts
// The bench sends SIGUSR2 to the session when its generators start and again when they stop; the
// hook then writes load-tests/out/session-<pid>.cpuprofile (open in Chrome DevTools) and a line of
// GC and event-loop figures. Loaded into every child process; only the session acts on it.
import inspector from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

if (process.env.WEFT_SERVICES === (process.env.PROF_SERVICE ?? 'session')) {
  const dir = new URL('../out/', import.meta.url);
  const s = new inspector.Session();
  s.connect();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const gcs = [];
  let on = false;
  new PerformanceObserver((l) => { if (on) for (const e of l.getEntries()) gcs.push({ kind: e.detail?.kind, ms: e.duration }); }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    if (!on) {
      on = true;
      loop.enable();
      s.post('Profiler.enable', () => s.post('Profiler.setSamplingInterval', { interval: 500 }, () => s.post('Profiler.start')));
      // PROF_HEAP=1: also where the window's allocations come from, the ones minor GC frees included.
      if (process.env.PROF_HEAP === '1') s.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
      return;
    }
    loop.disable();
    if (process.env.PROF_HEAP === '1') {
      s.post('HeapProfiler.stopSampling', (err, res) => {
        mkdirSync(dir, { recursive: true });
        if (!err) writeFileSync(new URL(`session-${process.pid}.heapprofile`, dir), JSON.stringify(res.profile));
      });
    }
    s.post('Profiler.stop', (err, res) => {
      mkdirSync(dir, { recursive: true });
      if (!err) writeFileSync(new URL(`session-${process.pid}.cpuprofile`, dir), JSON.stringify(res.profile));
      const sum = (k) => gcs.filter((g) => g.kind === k).reduce((a, g) => a + g.ms, 0);
      const max = (k) => Math.max(0, ...gcs.filter((g) => g.kind === k).map((g) => g.ms));
      writeFileSync(new URL(`session-${process.pid}.txt`, dir), `gc: minor ${sum(1).toFixed(0)} ms (max ${max(1).toFixed(1)}), major ${sum(4).toFixed(0)} ms (max ${max(4).toFixed(1)}); event loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms\n`);
    });
  });
}
