#!/usr/bin/env node
// `npm run build:sdk`: the publishable @weft/client in shared/client/dist/ (then `npm pack` or
// `npm publish` there). The workspace keeps importing the TypeScript source; the published
// package is built:
//  - index.js: ESM, our private packages (@weft/core, protocol, ydoc) bundled in, third-party
//    packages left as imports and listed as dependencies at the lockfile's exact versions;
//  - cli.js: the `weft` command (bin), bundled the same way for Node;
//  - types/: .d.ts emitted by tsc for the client and the packages it bundles, their @weft/*
//    imports rewritten to relative paths, so the types need nothing unpublished;
//  - package.json (generated), README.md.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const client = join(root, 'shared/client');
/** Bundled into the SDK (never published on their own). */
const BUNDLED = ['client', 'core', 'protocol', 'ydoc'];

export async function buildSdk(out = join(client, 'dist')) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const external = { name: 'third-party-external', setup(b) { b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@weft/') ? undefined : { path: a.path, external: true })); } };
  const lib = await build({
    absWorkingDir: root, entryPoints: ['shared/client/src/index.ts'], outfile: join(out, 'index.js'),
    bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', sourcemap: true, metafile: true, logLevel: 'warning', plugins: [external],
  });
  const cli = await build({
    absWorkingDir: root, entryPoints: ['shared/client/src/cli/main.ts'], outfile: join(out, 'cli.js'), write: false,
    bundle: true, format: 'esm', platform: 'node', target: 'node20', metafile: true, logLevel: 'warning', plugins: [external],
  });
  // The source's hashbang runs tsx; the built one is plain node.
  writeFileSync(join(out, 'cli.js'), cli.outputFiles[0].text.replace(/^#![^\n]*\n/, '#!/usr/bin/env node\n'), { mode: 0o755 });
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packageOf = (s) => (s.startsWith('@') ? s.split('/').slice(0, 2) : s.split('/').slice(0, 1)).join('/');
  const deps = {};
  for (const o of [...Object.values(lib.metafile.outputs), ...Object.values(cli.metafile.outputs)]) {
    for (const i of o.imports) {
      if (!i.external || i.path.startsWith('node:') || builtinModules.includes(i.path)) continue;
      const name = packageOf(i.path);
      const v = lock.packages[`node_modules/${name}`]?.version;
      if (!v) throw new Error(`build-sdk: ${name} is imported but not in the lockfile`);
      deps[name] = v;
    }
  }
  // Peers of those (y-protocols for the provider) are dependencies too, at the lockfile's version.
  for (const name of Object.keys(deps)) {
    for (const peer of Object.keys(lock.packages[`node_modules/${name}`]?.peerDependencies ?? {})) {
      const v = lock.packages[`node_modules/${peer}`]?.version;
      if (v && !(peer in deps)) deps[peer] = v;
    }
  }

  // Types: tsc emits declarations of the bundled packages into a scratch folder of this build's
  // own (a fixed path was shared by every build on the machine); copied under types/<pkg>/ with
  // their cross-package imports made relative and .ts specifiers made .js.
  // Every source file of the bundled packages is a root file, the packages the client imports
  // first: a file tsc first meets through the client's `@weft/core` import (a node_modules
  // symlink) counts as an external library's, and is not emitted. CI lost core's and protocol's
  // .d.ts siblings that way now and then (their index.d.ts, a root file, was always there).
  const scratch = mkdtempSync(join(tmpdir(), 'weft-sdk-types-'));
  const sources = (pkg) => [...walkFiles(join(root, 'shared', pkg, 'src'))].filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')).sort();
  const config = join(scratch, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({
    extends: join(root, 'tsconfig.json'),
    compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: root, outDir: join(scratch, 'out'), typeRoots: [join(root, 'node_modules/@types')] },
    include: [],
    files: [...BUNDLED.filter((p) => p !== 'client'), 'client'].flatMap(sources),
  }));
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config], { encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`build-sdk: tsc failed\n${tsc.stdout}${tsc.stderr}`);
  const typesOut = join(out, 'types');
  for (const pkg of BUNDLED) {
    const from = join(scratch, 'out', 'shared', pkg, 'src');
    for (const file of walk(from)) {
      const target = join(typesOut, pkg, relative(from, file));
      mkdirSync(dirname(target), { recursive: true });
      let text = readFileSync(file, 'utf8');
      text = text.replace(/(from\s+|import\()(['"])@weft\/([a-z]+)\2/g, (m, lead, q, name) => {
        if (!BUNDLED.includes(name)) throw new Error(`build-sdk: ${relative(scratch, file)} imports @weft/${name}, which the SDK does not bundle`);
        let rel = relative(dirname(target), join(typesOut, name, 'index.js')).replaceAll('\\', '/');
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return `${lead}${q}${rel}${q}`;
      }).replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
      writeFileSync(target, text);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  checkTypes(typesOut);

  const src = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));
  const pkg = {
    name: src.name, version: src.version, description: 'Weft SDK: the HTTP client (timeouts, retries with the same opId, failover across URLs) the Yjs peer and the weft CLI',
    type: 'module', license: 'UNLICENSED', engines: { node: '>=20.19' },
    exports: { '.': { types: './types/client/index.d.ts', default: './index.js' } },
    types: './types/client/index.d.ts', bin: { weft: './cli.js' }, files: ['index.js', 'index.js.map', 'cli.js', 'types', 'README.md'],
    sideEffects: false, dependencies: Object.fromEntries(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(out, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  cpSync(join(client, 'README.md'), join(out, 'README.md'));
  return { out, dependencies: pkg.dependencies };
}

/** Every relative import of the emitted types names a file that is there: a consumer's tsc would fail on it. */
function checkTypes(typesOut) {
  const missing = [];
  for (const file of walk(typesOut)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
      const target = join(dirname(file), `${spec}.d.ts`);
      if (!existsSync(target)) missing.push(`${relative(typesOut, file)} → ${spec}.js`);
    }
  }
  if (missing.length > 0) throw new Error(`build-sdk: the emitted types import files that were not emitted:\n  ${missing.join('\n  ')}`);
}

function* walkFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walkFiles(p);
    else yield p;
  }
}

function* walk(dir) {
  for (const p of walkFiles(dir)) if (p.endsWith('.d.ts')) yield p;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { out, dependencies } = await buildSdk();
  console.log(`built ${relative(root, out)} (dependencies: ${Object.entries(dependencies).map(([n, v]) => `${n}@${v}`).join(', ')})`);
}
