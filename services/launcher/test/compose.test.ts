import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configOptions } from '@weft/session';

// docker-compose.yml cannot run on our machines (no Docker engine), so this checks that it is
// well-formed and agrees with the code: every service the launcher knows, with the env names the
// config parsers read, health checks, and dependencies on healthy Postgres and NATS.
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; healthcheck?: { test: string[] }; depends_on?: Record<string, { condition: string }>; build?: { dockerfile: string }; command?: string[] }>;
};
const launcher = readFileSync(join(ROOT, 'services/launcher/src/start.ts'), 'utf8');
const known = /const ALL = \[([^\]]+)\]/.exec(launcher)![1]!.match(/'([a-z]+)'/g)!.map((s) => s.slice(1, -1));
const envNames = new Set(Object.values(configOptions).map((o) => o.env));

describe('docker-compose.yml', () => {
  it('runs Postgres 15, NATS with JetStream, and one container per Weft service', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['nats', 'postgres', ...known].sort());
    expect(compose.services['nats']!.command).toContain('-js');
  });

  for (const name of known) {
    it(`${name}: WEFT_SERVICES=${name}, env names the config reads, healthy deps, a health check`, () => {
      const svc = compose.services[name]!;
      const env = svc.environment ?? {};
      expect(env['WEFT_SERVICES']).toBe(name);
      for (const key of ['DATABASE_URL', 'NATS_URL', 'PORT', 'WEFT_ADMIN_TOKEN']) {
        expect(envNames.has(key) || key === 'WEFT_SERVICES').toBe(true);
        expect(env[key], key).toBeDefined();
      }
      for (const key of Object.keys(env)) {
        const readByCode = envNames.has(key) || launcher.includes(`'${key}'`);
        expect(readByCode, `${key} is set in compose but no code reads it`).toBe(true);
      }
      expect(env['DATABASE_URL']).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(env['NATS_URL']).toBe('nats://nats:4222');
      expect(svc.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, nats: { condition: 'service_healthy' } });
      expect(svc.healthcheck?.test.join(' ')).toContain('/healthz');
      expect(readFileSync(join(ROOT, svc.build!.dockerfile), 'utf8')).toContain('services/launcher/src/start.ts');
    });
  }
});
