// The Build view's editor (./editor/main.ts and what it imports: @weft/client, yjs, the provider)
// bundled for the browser and kept in memory; served as a same-origin script under a content hash
// (CSP `script-src 'self'`). Production runs the bundle `npm run build` wrote beside the service's
// code (dist/editor.js); from source (`npm start`, tests) esbuild bundles it once per process.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface Bundle { body: string; hash: string }

export async function bundleEditor(): Promise<Bundle> {
  const body = (await prebuilt()) ?? (await bundleFromSource());
  return { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}

/** dist/editor.js when this code runs from the build (it never exists beside the sources). */
async function prebuilt(): Promise<string | null> {
  try {
    return await readFile(new URL('./editor.js', import.meta.url), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function bundleFromSource(): Promise<string> {
  // Loaded only here, so a production image without the sources never needs esbuild.
  const { build } = await import('esbuild');
  const r = await build({
    entryPoints: [fileURLToPath(new URL('./editor/main.ts', import.meta.url))],
    bundle: true, write: false, platform: 'browser', format: 'esm', target: 'es2022',
    // WeftPeer imports ws only when there is no global WebSocket (Node); browsers have one.
    external: ['ws'], minify: true, legalComments: 'none', logLevel: 'silent',
  });
  return r.outputFiles[0]?.text ?? '';
}
