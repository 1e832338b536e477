// PROF_SERVICE=generator: each load-generator process writes a CPU profile of its measured window
// to load-tests/out/generator-<pid>.cpuprofile (the services are profiled by bench/profile-hook.mjs).
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';

export function profileWhile(name: string): { stop(): Promise<void> } {
  if (process.env['PROF_SERVICE'] !== name) return { stop: async () => {} };
  const s = new Session();
  s.connect();
  const started = s.post('Profiler.enable').then(() => s.post('Profiler.setSamplingInterval', { interval: 500 })).then(() => s.post('Profiler.start'));
  return {
    async stop() {
      await started;
      const { profile } = await s.post('Profiler.stop');
      const dir = new URL('../../out/', import.meta.url);
      mkdirSync(dir, { recursive: true });
      writeFileSync(new URL(`${name}-${process.pid}.cpuprofile`, dir), JSON.stringify(profile));
      s.disconnect();
    },
  };
}
