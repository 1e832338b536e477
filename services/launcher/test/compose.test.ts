import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@weft/ops';
import { POSTGRES_MALLOC } from '@weft/testing';
import type { EnvSpec } from '@weft/ops';
import { CONFIG_SECTIONS, SERVICES } from '../src/config.ts';
// @ts-expect-error — a plain .mjs script without types; its exports are read below.
import { buildAll, ENTRIES } from '../../../infra/scripts/build.mjs';

// docker-compose.yml cannot run on our machines (no Docker engine), so this checks what can be
// checked without one: every command a container runs exists in its image's layout, the env the
// file sets is what the config schemas read (and parses), scaled services publish no host port,
// and the runtime image's production install holds every package the built JavaScript imports.
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
type Service = {
  image?: string; build?: { dockerfile: string }; command?: string[]; ports?: string[]; expose?: string[];
  environment?: Record<string, string>; healthcheck?: { test: string[] }; depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
};
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const dockerfile = readFileSync(join(ROOT, 'infra/docker/Dockerfile'), 'utf8');
const caddyfile = readFileSync(join(ROOT, 'infra/docker/Caddyfile'), 'utf8');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; version?: string }> };

/**
 * What is on PATH in each image, from the images' own Dockerfiles: the official nats scratch image
 * holds only /nats-server, its alpine variant busybox (wget, sh) + nats-server; postgres (Debian)
 * has the client tools; caddy's alpine image busybox + caddy; ours is node:*-bookworm-slim.
 */
const LAYOUTS: { image: RegExp; commands: string[] }[] = [
  { image: /^nats:[\d.]+-alpine[\d.]*$/, commands: ['nats-server', 'wget', 'sh', 'docker-entrypoint.sh'] },
  { image: /^nats:[\d.]+(-scratch)?$/, commands: ['nats-server'] },
  { image: /^postgres:15(\.\d+)?(-bookworm)?$/, commands: ['pg_isready', 'psql', 'sh', 'bash', 'postgres'] },
  { image: /^caddy:[\d.]+-alpine$/, commands: ['caddy', 'wget', 'sh'] },
];
const OURS = { commands: ['node', 'sh', 'npm'] };
const layoutOf = (svc: Service): { commands: string[] } => {
  if (svc.build) return OURS;
  const l = LAYOUTS.find((x) => x.image.test(svc.image ?? ''));
  if (!l) throw new Error(`no known layout for image ${svc.image}`);
  return l;
};

const weft = SERVICES as readonly string[];
const specs: EnvSpec[] = CONFIG_SECTIONS.map((s) => s.spec);
const declared = new Set(specs.flatMap((s) => Object.keys(s)));
/** ${VAR:-default} → default, ${VAR:?msg} → a sample value (what `docker compose` substitutes). */
const interpolate = (v: string): string => v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1').replace(/\$\{[A-Z_]+:\?[^}]*\}/g, 'sample');

/** The compose services that run a Weft service: `session-1`… run `session`, the rest their own name. */
const SESSION_NODES = Object.keys(compose.services).filter((n) => /^session-\d+$/.test(n)).sort();
const weftServices = [...weft.filter((n) => n !== 'session'), ...SESSION_NODES];
const serviceOf = (name: string): string => (SESSION_NODES.includes(name) ? 'session' : name);

describe('docker-compose.yml', () => {
  it('Postgres, NATS, three session nodes, one container per other Weft service and the proxy in front', () => {
    expect(SESSION_NODES).toEqual(['session-1', 'session-2', 'session-3']);
    expect(Object.keys(compose.services).sort()).toEqual(['nats', 'postgres', 'proxy', ...weftServices].sort());
    expect(compose.services['nats']!.command).toContain('-js');
  });

  it('Postgres keeps large blocks in its heap, as the test harness runs it', () => {
    expect(compose.services['postgres']!.environment!['GLIBC_TUNABLES']).toBe(POSTGRES_MALLOC);
  });

  it('each session node has its own node id and the URL the others reach it at', () => {
    const ids = SESSION_NODES.map((n) => compose.services[n]!.environment!['WEFT_NODE_ID']);
    expect(ids).toEqual(SESSION_NODES);
    for (const n of SESSION_NODES) expect(compose.services[n]!.environment!['WEFT_NODE_URL']).toBe(`http://${n}:8080`);
  });

  it('every health check runs a command its image has (the nats scratch image has no wget)', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      const test = svc.healthcheck?.test;
      expect(test, `${name} has a health check`).toBeDefined();
      const [kind, cmd] = test!;
      expect(['CMD', 'CMD-SHELL']).toContain(kind);
      const layout = layoutOf(svc);
      if (kind === 'CMD-SHELL') expect(layout.commands, `${name}: CMD-SHELL needs a shell`).toContain('sh');
      else expect(layout.commands, `${name}: ${cmd}`).toContain(cmd);
    }
    // The nats monitoring endpoint the check asks is the one the command turns on.
    const nats = compose.services['nats']!;
    expect(nats.command!.join(' ')).toContain('-m 8222');
    expect(nats.healthcheck!.test.join(' ')).toContain('127.0.0.1:8222/healthz');
  });

  for (const name of weftServices) {
    it(`${name}: WEFT_SERVICES=${serviceOf(name)}, env the schemas read and accept, ready deps, /readyz`, () => {
      const svc = compose.services[name]!;
      const env = Object.fromEntries(Object.entries(svc.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      expect(env['WEFT_SERVICES']).toBe(serviceOf(name));
      for (const key of Object.keys(env)) expect(declared.has(key), `${key} is set in compose but no schema declares it`).toBe(true);
      for (const spec of specs) expect(() => parseEnv(spec, env)).not.toThrow();
      expect(env['DATABASE_URL']).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(env['NATS_URL']).toBe('nats://nats:4222');
      expect(svc.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, nats: { condition: 'service_healthy' } });
      expect(svc.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:8080/readyz');
      expect(svc.build!.dockerfile).toBe('infra/docker/Dockerfile');
    });

    it(`${name}: no fixed host port (scaled with --scale; only the proxy publishes one)`, () => {
      expect(compose.services[name]!.ports).toBeUndefined();
    });
  }

  it('the proxy publishes the one port and routes to services that exist', () => {
    expect(compose.services['proxy']!.ports).toEqual(['${WEFT_HTTP_PORT:-8080}:8080']);
    expect(compose.services['proxy']!.volumes).toContain('./infra/docker/Caddyfile:/etc/caddy/Caddyfile:ro');
    const upstreams = [...caddyfile.matchAll(/^\s*reverse_proxy\s+([^{\n]+)/gm)].map((m) => m[1]!.trim().split(/\s+/).map((u) => u.replace(/:8080$/, '')));
    // The preview, then every session node in both session routes (by draft id, and the rest).
    expect(upstreams).toEqual([['preview'], SESSION_NODES, SESSION_NODES]);
    for (const u of upstreams.flat()) expect(compose.services[u]).toBeDefined();
    // The proxy waits for every node it routes to.
    expect(Object.keys(compose.services['proxy']!.depends_on ?? {}).sort()).toEqual(['preview', ...SESSION_NODES].sort());
  });

  it('named volumes are declared', () => {
    const used = Object.values(compose.services).flatMap((s) => s.volumes ?? []).map((v) => v.split(':')[0]!).filter((v) => !v.startsWith('.'));
    for (const v of used) expect(compose.volumes).toHaveProperty(v);
  });
});

describe('infra/docker/Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const stage = (name: string): string => stages.find((s) => s.split('\n')[0]!.endsWith(` AS ${name}`))!;
  const runtime = stages.at(-1)!;

  it('builds the JavaScript in a build stage, runs plain node on it as the node user', () => {
    expect(stage('build')).toMatch(/^RUN npm ci\b/m);
    expect(stage('build')).toMatch(/^RUN npm run build$/m);
    expect(stage('build').indexOf('npm ci')).toBeLessThan(stage('build').indexOf('COPY . .'));
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)![1]!) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd).not.toContain('tsx');
    const entry = cmd.at(-1)!;
    expect(entry.startsWith('dist/')).toBe(true);
    expect(Object.keys(ENTRIES as Record<string, string>)).toContain(entry.slice('dist/'.length));
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toMatch(/^USER node$/m);
  });

  it('the runtime installs production dependencies only, and the data directory belongs to node', () => {
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toContain('COPY --from=manifests /manifests/ ./');
    // Every workspace's manifest is copied (npm ci needs them all to match the lockfile).
    const tops = /find ((?:[a-z-]+ )+)-name package\.json/.exec(stage('manifests'))![1]!.trim().split(' ').sort();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    expect([...new Set(pkg.workspaces.map((w) => w.split('/')[0]!))].sort()).toEqual(tops);
    const dataDir = /WEFT_DATA_DIR=(\S+)/.exec(runtime)![1]!;
    expect(runtime).toContain(`chown node:node ${dataDir}`);
    // The user switch comes after everything root must do.
    expect(runtime.indexOf('USER node')).toBeGreaterThan(runtime.indexOf(`chown node:node ${dataDir}`));
  });

  it('package.json has the build script the image runs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['build']).toBe('turbo run build');
  });
});

describe('the built JavaScript', () => {
  let out: string;
  let imports: string[];
  beforeAll(async () => {
    // Inside the repo, so Node would resolve the externals from its node_modules like in /app.
    out = mkdtempSync(join(ROOT, 'node_modules', '.weft-build-'));
    const meta = (await buildAll(out)) as { outputs: Record<string, { imports: { path: string; external?: boolean }[] }> };
    imports = [...new Set(Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))];
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('imports only Node built-ins and packages the production install has (not dev-only)', () => {
    const builtins = new Set(builtinModules);
    const packageOf = (spec: string): string => (spec.startsWith('@') ? spec.split('/').slice(0, 2) : spec.split('/').slice(0, 1)).join('/');
    const missing: string[] = [];
    for (const spec of imports) {
      if (spec.startsWith('node:') || builtins.has(spec)) continue;
      const entry = lock.packages[`node_modules/${packageOf(spec)}`];
      if (!entry || entry.dev === true) missing.push(spec);
    }
    expect(missing).toEqual([]);
    expect(imports.some((s) => s.startsWith('@weft/'))).toBe(false); // the workspace is inlined
    expect(imports).not.toContain('tsx');
  });
});
