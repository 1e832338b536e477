// `npm start` as its user meets it: what it prints, and what it does with a damaged data dir.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openPGlite } from '@weft/store';
import { freePort, startPostgres } from '@weft/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const dirs: string[] = [];
const tempDir = (): string => { const d = mkdtempSync(join(tmpdir(), 'weft-start-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

interface Run { url: string; output(): string; exited: Promise<number | null>; stop(): Promise<void>; kill9(): Promise<void> }

/** Starts the launcher; resolves once it serves, or once it has exited (a refused start). */
async function start(dataDir: string, env: Record<string, string> = {}, onOutput?: (out: string) => void): Promise<Run> {
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = { ...process.env, WEFT_DATA_DIR: dataDir, PORT: String(port), ...env };
  if (!('DATABASE_URL' in env)) delete childEnv['DATABASE_URL'];
  delete childEnv['NATS_URL'];
  if (!('WEFT_ADMIN_TOKEN' in env)) delete childEnv['WEFT_ADMIN_TOKEN'];
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/launcher/src/start.ts')], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); onOutput?.(out); });
  child.stderr.on('data', (d: Buffer) => { out += d.toString(); onOutput?.(out); });
  // 'close', not 'exit': the output a test reads must include what was still in the pipes when the
  // process ended (the start banner went missing once in CI, stopped right after the log line).
  const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
  let done = false;
  void exited.then(() => { done = true; });
  for (let i = 0; i < 1200 && !done && !out.includes('Weft is running at'); i++) await new Promise((r) => setTimeout(r, 50));
  return {
    url: `http://127.0.0.1:${port}`, output: () => out, exited,
    async stop() { if (!done) { child.kill('SIGTERM'); await exited; } },
    async kill9() { if (!done) { child.kill('SIGKILL'); await exited; } },
  };
}

describe('npm start', () => {
  const token = 'env-supplied-admin-token-7f3a';
  let dataDir = '';

  it('does not print an admin token supplied through WEFT_ADMIN_TOKEN; prints one it made', async () => {
    dataDir = tempDir();
    const run = await start(dataDir, { WEFT_ADMIN_TOKEN: token });
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${run.url}/v1/drafts`, { method: 'POST', headers: auth, body: JSON.stringify({ id: 'home', title: 'Home' }) })).status).toBe(201);
    const op = { op: 'add', path: '/sections/s', value: { id: 's', kind: 'surface', catalog: 'weft@1', components: { root: { id: 'root', component: 'Text', props: { text: 'kept' } } }, data: {} } };
    expect((await fetch(`${run.url}/v1/drafts/home/ops`, { method: 'POST', headers: auth, body: JSON.stringify({ opId: 'op-1', ops: [op] }) })).status).toBe(200);
    await run.stop();
    expect(run.output()).toContain('Weft is running at');
    // Given through the environment (and no terminal): JSON lines only, the token in none of them.
    expect(run.output()).not.toContain(token);

    const fresh = await start(tempDir());
    await fresh.stop();
    const made = /admin token: (wft_admin_\S+)/.exec(fresh.output())?.[1];
    expect(made).toBeDefined();
    expect(fresh.output()).toContain(`TOKEN=${made}`);
  }, 120_000);

  it('refuses a PGlite dir whose events relation was truncated, naming it and what to do', async () => {
    const damaged = tempDir();
    cpSync(dataDir, damaged, { recursive: true });
    const pgDir = join(damaged, 'pglite');
    const conn = await openPGlite(pgDir);
    const { rows } = await sql<{ p: string }>`SELECT pg_relation_filepath('events') AS p`.execute(conn.db);
    await conn.close();
    truncateSync(join(pgDir, rows[0]!.p), 0);
    const run = await start(damaged);
    expect(await run.exited).toBe(1);
    expect(run.output()).not.toContain('Weft is running at');
    expect(run.output()).toContain(`The embedded database in ${pgDir} is damaged: the event log has lost rows (draft "home": head version 2, 0 events up to version 0)`);
    expect(run.output()).toContain(`mv ${pgDir} ${pgDir}.damaged`);
  }, 120_000);

  it('refuses a PGlite dir with a truncated WAL segment with the same advice, not a bare Aborted()', async () => {
    const damaged = tempDir();
    cpSync(dataDir, damaged, { recursive: true });
    const pgDir = join(damaged, 'pglite');
    const wal = join(pgDir, 'pg_wal');
    const newest = readdirSync(wal).filter((f) => /^[0-9A-F]{24}$/.test(f)).sort().at(-1)!;
    truncateSync(join(wal, newest), Math.floor(statSync(join(wal, newest)).size / 16));
    const run = await start(damaged);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(`The embedded database in ${pgDir} is damaged: PGlite could not open it (RuntimeError: Aborted()`);
    expect(run.output()).toContain(`mv ${pgDir} ${pgDir}.damaged`);
    expect(run.output()).not.toMatch(/^\s+at /m); // the advice, not a stack trace
    // The intact original still starts.
    const ok = await start(dataDir);
    await ok.stop();
    expect(ok.output()).toContain('Weft is running at');
  }, 120_000);
  it('refuses a second process on the same data dir (naming the first one\'s pid); after that one is killed, a start takes the dir over at once', async () => {
    const dir = tempDir();
    const first = await start(dir, { WEFT_ADMIN_TOKEN: token });
    expect(first.output()).toContain('Weft is running at');
    const second = await start(dir, { WEFT_ADMIN_TOKEN: token });
    expect(await second.exited).toBe(1);
    expect(second.output()).not.toContain('Weft is running at');
    expect(second.output()).toMatch(new RegExp(`The embedded database in ${join(dir, 'pglite')} is in use by another Weft process \\(pid \\d+\\)`));
    // The first one still serves, its data whole.
    expect((await fetch(`${first.url}/v1/drafts`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ id: 'mine', title: 'Mine' }) })).status).toBe(201);
    await first.kill9();
    const third = await start(dir, { WEFT_ADMIN_TOKEN: token });
    try {
      expect(third.output()).toContain('Weft is running at');
      expect((await fetch(`${third.url}/v1/drafts/mine`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await third.stop();
    }
  }, 180_000);

  it('refuses a preview or checkpointer process without the session and without NATS_URL (it would never hear of a step), naming the fix', async () => {
    // Refused while reading the config: no database is reached, so none is needed here.
    const db = 'postgres://weft@127.0.0.1:1/weft';
    const preview = await start(tempDir(), { WEFT_ADMIN_TOKEN: token, DATABASE_URL: db, WEFT_SERVICES: 'preview' });
    expect(await preview.exited).toBe(2); // a bad configuration, as every refused variable
    expect(preview.output()).toContain('NATS_URL: the preview without the session in this process hears of new steps only over NATS: set NATS_URL');
    const both = await start(tempDir(), { WEFT_ADMIN_TOKEN: token, DATABASE_URL: db, WEFT_SERVICES: 'preview,checkpointer' });
    expect(await both.exited).toBe(2);
    expect(both.output()).toContain('NATS_URL: the preview and checkpointer without the session in this process hear of new steps');
  });

  it('a session process without NATS_URL while the preview and checkpointer run elsewhere starts, and warns that they will not hear it', async () => {
    const pg = await startPostgres({ fsync: false });
    try {
      const run = await start(tempDir(), { WEFT_ADMIN_TOKEN: token, DATABASE_URL: pg.url, WEFT_SERVICES: 'session' });
      try {
        expect(run.output()).toContain('Weft is running at');
        expect(run.output()).toContain('no NATS_URL: a preview or checkpointer in another process will not hear of this session\'s steps');
      } finally {
        await run.stop();
      }
    } finally {
      await pg.destroy();
    }
  });

  it('with DATABASE_URL, waits for a Postgres that is still starting (saying so), then serves; a wrong database name or a database that never comes ends the start with what to check', async () => {
    const pg = await startPostgres({ fsync: false });
    try {
      await pg.stop('fast');
      const auth = { authorization: `Bearer ${token}` };
      // Postgres comes up after Weft's first try (compose, systemd): before, the start died at that query.
      let late: Promise<void> | undefined;
      const run = await start(tempDir(), { WEFT_ADMIN_TOKEN: token, DATABASE_URL: pg.url }, (out) => {
        if (!late && out.includes('waiting for Postgres')) late = pg.start();
      });
      await late;
      try {
        expect(run.output()).toContain(`waiting for Postgres at 127.0.0.1:${pg.port}`);
        expect(run.output()).toContain('Weft is running at');
        expect(await (await fetch(`${run.url}/healthz`)).json()).toMatchObject({ db: true });
        expect((await fetch(`${run.url}/v1/drafts`, { method: 'POST', headers: auth, body: JSON.stringify({ id: 'late', title: 'Late' }) })).status).toBe(201);
      } finally {
        await run.stop();
      }
      // A database that does not exist will not appear by waiting: refused at once (the wait is an hour here).
      const wrong = await start(tempDir(), { WEFT_ADMIN_TOKEN: token, DATABASE_URL: pg.url.replace(/\/postgres$/, '/nope'), WEFT_START_WAIT_S: '3600' });
      expect(await wrong.exited).toBe(1);
      expect(wrong.output()).toContain(`Postgres at 127.0.0.1:${pg.port} refused the connection: database "nope" does not exist. Check DATABASE_URL`);
      expect(wrong.output()).not.toMatch(/^\s+at /m);
      await pg.stop('fast');
      const never = await start(tempDir(), { WEFT_ADMIN_TOKEN: token, DATABASE_URL: pg.url, WEFT_START_WAIT_S: '1' });
      expect(await never.exited).toBe(1);
      expect(never.output()).toContain(`Postgres at 127.0.0.1:${pg.port} did not answer within 1 s`);
      expect(never.output()).toContain('Is it running, and is DATABASE_URL right?');
    } finally {
      await pg.destroy();
    }
  }, 180_000);
});
