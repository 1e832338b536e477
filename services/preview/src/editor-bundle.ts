// The Build view's editor (./editor/main.ts and what it imports: @weft/client, yjs, the provider)
// bundled for the browser once per process with esbuild's JS API and kept in memory; served as a
// same-origin script under a content hash (CSP `script-src 'self'`). Never written to disk.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface Bundle { body: string; hash: string }

export async function bundleEditor(): Promise<Bundle> {
  const r = await build({
    entryPoints: [fileURLToPath(new URL('./editor/main.ts', import.meta.url))],
    bundle: true, write: false, platform: 'browser', format: 'esm', target: 'es2022',
    // WeftPeer imports ws only when there is no global WebSocket (Node); browsers have one.
    external: ['ws'], minify: true, legalComments: 'none', logLevel: 'silent',
  });
  const body = r.outputFiles[0]?.text ?? '';
  return { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}
