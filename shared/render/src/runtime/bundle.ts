// The interaction runtime as one constant script: ./main.ts and core's evaluators bundled with
// esbuild once per process (deterministic, so its hash is constant per release), minified for
// the ≤ 6 KB gzip budget (runtime.test.ts). Served same-origin under its hash; never on disk.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export interface RuntimeScript { body: string; hash: string }

let cached: Promise<RuntimeScript> | undefined;

export function runtimeScript(): Promise<RuntimeScript> {
  cached ??= build().catch((e: unknown) => { cached = undefined; throw e; });
  return cached;
}

async function build(): Promise<RuntimeScript> {
  const { build: esbuild } = await import('esbuild');
  const r = await esbuild({
    entryPoints: [fileURLToPath(new URL('./main.ts', import.meta.url))],
    bundle: true, write: false, platform: 'browser', format: 'iife', target: 'es2022',
    minify: true, legalComments: 'none', logLevel: 'silent',
  });
  const body = r.outputFiles[0]?.text ?? '';
  return { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 16) };
}
