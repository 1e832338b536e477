#!/usr/bin/env node
// The package dependency rule (CONVENTIONS.md §1 and "Layout"), checked on every `npm test`:
//  1. every `@weft/*` import in a package's src/bench/test is allowed by the Layout table;
//  2. it is declared in that package's package.json dependencies;
//  3. there is no import cycle between packages.
// `@weft/migrations` is the schema (imports `kysely` only); the store runs it at open (PGlite)
// and the harness builds its template with it, so those two, and `npm start`'s session service,
// may depend on it.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED = ['core', 'protocol', 'store', 'bus', 'ydoc', 'render', 'interop', 'client', 'ops', 'testing'];

/** package name → allowed @weft imports (the Layout table). */
const ALLOWED = {
  '@weft/core': [],
  '@weft/protocol': ['core'],
  '@weft/store': ['core', 'protocol', 'migrations'],
  '@weft/bus': ['core', 'protocol'],
  '@weft/ydoc': ['core'],
  // render draws ```surface fences in prose with interop's fence reader (one implementation).
  '@weft/render': ['core', 'interop'],
  '@weft/interop': ['core', 'protocol'],
  '@weft/client': ['core', 'protocol', 'ydoc'],
  // Service shells' plumbing: config from env, logs, metrics, probes. Imports nothing of ours.
  '@weft/ops': [],
  '@weft/testing': [...SHARED.filter((s) => s !== 'testing'), 'migrations'],
  '@weft/session': [...SHARED.filter((s) => s !== 'client' && s !== 'testing'), 'migrations'],
  // The Build view's editor is a browser bundle: a Yjs peer (client, ydoc).
  '@weft/preview': ['core', 'protocol', 'bus', 'store', 'render', 'client', 'ydoc', 'ops'],
  '@weft/checkpointer': ['core', 'protocol', 'store', 'bus', 'ydoc', 'ops'],
  '@weft/agent': ['core', 'protocol', 'client', 'interop', 'ops'],
  // Webhook dispatcher: the log (store) → signed deliveries; the bus only wakes it.
  '@weft/webhooks': ['core', 'protocol', 'store', 'bus', 'ops'],
  // `npm start`: the only package that imports services; runs every build() in one process.
  '@weft/launcher': [...SHARED.filter((s) => s !== 'client' && s !== 'testing'), 'migrations', 'session', 'preview', 'checkpointer', 'agent', 'webhooks'],
  '@weft/migrations': [],
  '@weft/load-tests': ['client', 'protocol'],
};
// Test and bench files (dev only) may also use the harness, the client SDK (to drive a service
// from outside, as users do) and the migrations; they need not be declared in package.json.
const TEST_FILE = /\.(int\.|e2e\.)?test\.ts$|\/test\/|\/bench\//;
const TEST_ONLY_EXTRA = ['testing', 'client', 'migrations'];

const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dirs = [];
for (const pattern of rootPkg.workspaces) {
  if (pattern.endsWith('/*')) {
    const base = join(root, pattern.slice(0, -2));
    if (!existsSync(base)) continue;
    for (const d of readdirSync(base)) if (existsSync(join(base, d, 'package.json'))) dirs.push(join(base, d));
  } else if (existsSync(join(root, pattern, 'package.json'))) dirs.push(join(root, pattern));
}

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|mts|js|mjs)$/.test(name)) yield p;
  }
}

const IMPORT = /(?:from|import)\s*\(?\s*['"](@weft\/[a-z0-9-]+)(?:\/[^'"]*)?['"]/g;
const problems = [];
const graph = new Map(); // runtime (non-test) edges only, for the cycle check

for (const dir of dirs) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const name = pkg.name;
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }));
  const allowed = ALLOWED[name];
  if (allowed === undefined) {
    problems.push(`${relative(root, dir)}: package ${name} is not in the Layout table (infra/scripts/check-deps.mjs)`);
    continue;
  }
  const edges = new Set();
  for (const sub of ['src', 'bench', 'test']) {
    for (const file of files(join(dir, sub))) {
      const text = readFileSync(file, 'utf8');
      const isTest = TEST_FILE.test(file);
      for (const m of text.matchAll(IMPORT)) {
        const target = m[1];
        const short = target.slice('@weft/'.length);
        const rel = relative(root, file);
        if (target === name) { problems.push(`${rel}: imports its own package ${target}; use a relative path`); continue; }
        const ok = allowed.includes(short) || (isTest && TEST_ONLY_EXTRA.includes(short));
        if (!ok) problems.push(`${rel}: ${name} may not import ${target} (CONVENTIONS.md Layout)`);
        else if (!declared.has(target) && !isTest) problems.push(`${rel}: imports ${target}, not declared in ${relative(root, dir)}/package.json`);
        if (!isTest) edges.add(target);
      }
    }
  }
  graph.set(name, edges);
}

// Cycle check (DFS, colours).
const colour = new Map();
const stack = [];
function visit(n) {
  colour.set(n, 'grey');
  stack.push(n);
  for (const m of graph.get(n) ?? []) {
    if (colour.get(m) === 'grey') problems.push(`import cycle: ${[...stack.slice(stack.indexOf(m)), m].join(' → ')}`);
    else if (!colour.has(m)) visit(m);
  }
  stack.pop();
  colour.set(n, 'black');
}
for (const n of graph.keys()) if (!colour.has(n)) visit(n);

if (problems.length > 0) {
  console.error(`check-deps: ${problems.length} problem(s)`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`check-deps: ${graph.size} packages, dependency rule holds, no cycles`);
