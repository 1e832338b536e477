// The compose stack's proxy, for tests: Debian's caddy (installed with apt-get when missing, like
// nats-server) running the repo's Caddyfile with the compose service names mapped to local ports.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandOrInstall } from './apt.ts';
import { freePort } from './free-port.ts';

export interface CaddyProxy {
  readonly url: string;
  stop(): Promise<void>;
}

const caddyBinary = (): string => commandOrInstall('caddy', 'caddy', { recommends: false });

/**
 * Runs `caddyfilePath` with each `name:8080` upstream replaced by `upstreams[name]` (host:port)
 * and the site's `:8080` by a free port; resolves once `/healthz` answers through it.
 */
export async function startCaddy(caddyfilePath: string, upstreams: Record<string, string>): Promise<CaddyProxy> {
  const bin = caddyBinary();
  const port = await freePort();
  let conf = readFileSync(caddyfilePath, 'utf8').replace(/^:8080 \{/m, `:${port} {`);
  for (const [name, hostPort] of Object.entries(upstreams)) conf = conf.replaceAll(`${name}:8080`, hostPort);
  const dir = mkdtempSync(join(tmpdir(), 'weft-caddy-'));
  writeFileSync(join(dir, 'Caddyfile'), conf);
  const child = spawn(bin, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    // The Caddyfile drains for its grace period; a test has closed its clients, so 1 s will do.
    if (child.exitCode === null) {
      await new Promise<void>((r) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 1000);
        child.once('exit', () => { clearTimeout(kill); r(); });
        child.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; !(await fetch(`${url}/healthz`).then((r) => r.ok, () => false)); i++) {
    if (i > 300 || child.exitCode !== null) { await stop(); throw new Error(`caddy did not start (exit ${child.exitCode})`); }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop };
}
