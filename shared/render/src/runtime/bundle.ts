// The interaction runtime as one constant script: ./main.ts and core's evaluators bundled with
// esbuild (deterministic, so its hash is constant per release), minified for the ≤ 6 KB gzip
// budget (runtime.test.ts), served same-origin under its hash. Production reads the bundle
// `npm run build` wrote beside the service's code (dist/runtime.js: no sources, no esbuild there);
// from source (`npm start`, tests) it is bundled once per process.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface RuntimeScript { body: string; hash: string }

let cached: Promise<RuntimeScript> | undefined;

export function runtimeScript(): Promise<RuntimeScript> {
  cached ??= build().catch((e: unknown) => { cached = undefined; throw e; });
  return cached;
}

/** The esbuild options of the runtime, shared with the build step (infra/scripts/build.mjs). */
export const RUNTIME_BUILD = { bundle: true, platform: 'browser', format: 'iife', target: 'es2022', minify: true, legalComments: 'none' } as const;

async function build(): Promise<RuntimeScript> {
  const body = (await prebuilt()) ?? (await fromSource());
  return { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

/** dist/runtime.js when this code runs from the build (it never exists beside the sources). */
async function prebuilt(): Promise<string | null> {
  try {
    return await readFile(new URL('./runtime.js', import.meta.url), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function fromSource(): Promise<string> {
  const { build: esbuild } = await import('esbuild');
  const r = await esbuild({ entryPoints: [fileURLToPath(new URL('./main.ts', import.meta.url))], write: false, logLevel: 'silent', ...RUNTIME_BUILD });
  return r.outputFiles[0]?.text ?? '';
}
