// Spawned services for the agent's e2e tests: the launcher (session service on a test Postgres
// database) and a local fake OpenAI-compatible endpoint that replays recorded answers.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from '@weft/testing';

const LAUNCHER = fileURLToPath(new URL('../../launcher/src/start.ts', import.meta.url));

/** The launcher with the session service (and the agent's /agent/briefs) on a test database;
 *  `db` null: every service in one process on the embedded PGlite (the benches). */
export async function startSession(db: TestDatabase | null, admin: string, env: Record<string, string> = {}): Promise<{ url: string; proc: ChildProcess }> {
  const all: Record<string, string | undefined> = { ...process.env, DATABASE_URL: db?.url, WEFT_SERVICES: db ? 'session' : undefined, PORT: '0', HOST: '127.0.0.1', WEFT_ADMIN_TOKEN: admin, WEFT_DATA_DIR: mkdtempSync(join(tmpdir(), 'weft-agent-')), NATS_URL: db ? '' : undefined, WEFT_MODEL_URL: '', ...env };
  // Unset, not empty: the services read an empty DATABASE_URL as one given.
  const proc = spawn(process.execPath, ['--import', 'tsx', LAUNCHER], {
    env: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`session did not start:\n${out}`)), 60_000);
    const read = (b: Buffer) => {
      out += b.toString();
      const m = /running at (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', read);
    proc.stderr!.on('data', read);
    proc.once('exit', (code) => reject(new Error(`session exited ${code}:\n${out}`)));
  });
  return { url, proc };
}

/** Stops what an e2e file started: the session process (until it has exited, at most 5 s), the
 *  fake model, then the database the process was using. */
export async function stopStack(o: { session?: { proc: ChildProcess } | null | undefined; model?: { server: Server } | null | undefined; db?: TestDatabase | null | undefined }): Promise<void> {
  const p = o.session?.proc;
  if (p && p.exitCode === null && p.signalCode === null) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 5000);
      p.once('exit', () => { clearTimeout(t); resolve(); });
      p.kill('SIGTERM');
    });
  }
  o.model?.server.close();
  await o.db?.drop();
}

export interface ModelRequest { model: string; messages: { role: string; content: string }[]; stream: boolean; authorization: string | null }

/** Tokens as the fake counts them (about four characters each): what its `usage` reports. */
export const fakeTokens = (text: string): number => Math.ceil(text.length / 4);

/** An OpenAI-compatible /chat/completions that replays answers, streamed as SSE deltas: the
 *  list in turn (the last one again when it runs out), or what `answer` says for each request
 *  (by its model, messages…); `pace` streams them in `chunkChars` pieces `delayMs` apart (a model
 *  writing as it thinks). It reports `usage` as OpenAI does: in the JSON answer, and in a last
 *  chunk when the request asked for it (`stream_options.include_usage`). */
export function fakeModel(answers: string[] | ((req: ModelRequest) => string), pace: { chunkChars?: number; delayMs?: number } = {}): Promise<{ url: string; server: Server; requests: ModelRequest[] }> {
  const requests: ModelRequest[] = [];
  let i = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const j = JSON.parse(body) as { model?: string; messages: { role: string; content: string }[]; stream?: boolean; stream_options?: { include_usage?: boolean } };
      requests.push({ model: j.model ?? '', messages: j.messages, stream: j.stream === true, authorization: req.headers.authorization ?? null });
      const text = typeof answers === 'function' ? answers(requests.at(-1)!) : (answers[Math.min(i++, answers.length - 1)] ?? '');
      const usage = { prompt_tokens: fakeTokens(j.messages.map((m) => m.content).join('')), completion_tokens: fakeTokens(text), total_tokens: 0 };
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
      if (!j.stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: text } }], usage }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const size = pace.chunkChars ?? 23;
      const chunks: string[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(`data: ${JSON.stringify({ choices: [{ delta: { content: text.slice(at, at + size) } }] })}\n\n`);
      if (j.stream_options?.include_usage) chunks.push(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      // Slowly, when asked: a model writing token by token, so viewers can see a step being written.
      const next = (): void => {
        if (res.destroyed) return;
        const c = chunks.shift();
        if (c === undefined) { res.end('data: [DONE]\n\n'); return; }
        res.write(c);
        if (pace.delayMs) setTimeout(next, pace.delayMs);
        else next();
      };
      next();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const a = server.address();
    resolve({ url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/v1`, server, requests });
  }));
}

