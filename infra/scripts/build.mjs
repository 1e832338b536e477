#!/usr/bin/env node
// `npm run build`: the JavaScript production runs with plain `node` (no tsx at run time).
// Each entry point is bundled by esbuild with the workspace's own packages (@weft/*, TypeScript
// source) inlined and every third-party package left external, so `npm ci --omit=dev` supplies
// exactly what the bundles import. The Build view's editor is bundled for the browser here, once,
// instead of at the first request. Output: dist/ (git-ignored).
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** dist file → source entry. The compose services all run dist/launcher.js (WEFT_SERVICES picks). */
export const ENTRIES = {
  'launcher.js': 'services/launcher/src/start.ts',
  'preview.js': 'services/preview/src/main.ts',
  'checkpointer.js': 'services/checkpointer/src/main.ts',
  'webhooks.js': 'services/webhooks/src/main.ts',
  'migrate.js': 'migrations/src/cli.ts',
  // The replay worker (shared/store/src/replay/fold-off-thread.ts starts ./fold-worker.js beside the bundle).
  'fold-worker.js': 'shared/store/src/replay/fold-worker.ts',
};

/** Bare imports outside the workspace stay imports (resolved from node_modules at run time). */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@weft/') ? undefined : { path: args.path, external: true }));
  },
};

/** Builds everything into `out`; returns esbuild's metafile of the Node bundles (their imports). */
export async function buildAll(out = join(root, 'dist')) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const node = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([file, src]) => [file.replace(/\.js$/, ''), src])),
    outdir: out,
    bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: true, metafile: true,
    plugins: [thirdPartyExternal], logLevel: 'warning',
    banner: { js: '// Built by infra/scripts/build.mjs from the TypeScript sources; do not edit.' },
  });
  // The preview reads its static assets next to its code (import.meta.url) and, in a bundle,
  // finds the prebuilt editor there too (services/preview/src/editor-bundle.ts).
  cpSync(join(root, 'services/preview/src/assets'), join(out, 'assets'), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['services/preview/src/editor/main.ts'],
    outfile: join(out, 'editor.js'),
    bundle: true, platform: 'browser', format: 'esm', target: 'es2022',
    // Same options as the runtime fallback (editor-bundle.ts): WeftPeer imports ws only in Node.
    external: ['ws'], minify: true, legalComments: 'none', logLevel: 'warning',
  });
  // The interaction runtime, as shared/render/src/runtime/bundle.ts builds it from source.
  await build({
    absWorkingDir: root,
    entryPoints: ['shared/render/src/runtime/main.ts'],
    outfile: join(out, 'runtime.js'),
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', minify: true, legalComments: 'none', logLevel: 'warning',
  });
  return node.metafile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildAll();
  console.log(`built ${[...Object.keys(ENTRIES), 'editor.js', 'runtime.js', 'assets/'].map((f) => `dist/${f}`).join(', ')}`);
}
