import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, routeConsole } from './log.ts';

/** A logger writing into an array of parsed lines (every line must be JSON). */
function capture(): { lines: Record<string, unknown>[]; raw: string[]; dest: Writable } {
  const raw: string[] = [];
  const dest = new Writable({ write(chunk: Buffer, _enc, cb) { raw.push(...chunk.toString('utf8').split('\n').filter(Boolean)); cb(); } });
  return { raw, dest, get lines() { return raw.map((l) => JSON.parse(l) as Record<string, unknown>); } };
}

describe('createLogger', () => {
  it('one JSON object per line with time, level, service, node and msg', () => {
    const c = capture();
    const log = createLogger({ service: 'session', node: 'n1', destination: c.dest });
    log.info('hello', { draftId: 'home' });
    log.child({ reqId: 'r-1' }).warn('slow');
    const [a, b] = c.lines;
    expect(a).toMatchObject({ level: 'info', service: 'session', node: 'n1', msg: 'hello', draftId: 'home' });
    expect(Date.parse(String(a!['time']))).not.toBeNaN();
    expect(b).toMatchObject({ level: 'warn', reqId: 'r-1', msg: 'slow' });
  });

  it('secrets never reach a line: known fields redacted, URL userinfo dropped', () => {
    const c = capture();
    const log = createLogger({ service: 's', destination: c.dest });
    log.info('x', { token: 'wft_secret', adminToken: 'wft_admin_x', req: { headers: { authorization: 'Bearer wft_secret' } }, url: 'postgres://weft:hunter2@db:5432/weft', nested: { password: 'hunter2' } });
    expect(c.raw.join('\n')).not.toMatch(/wft_secret|wft_admin_x|hunter2/);
    expect(c.lines[0]).toMatchObject({ token: '[redacted]', url: 'postgres://[redacted]@db:5432/weft', nested: { password: '[redacted]' } });
  });

  it('levels below the configured one are dropped', () => {
    const c = capture();
    const log = createLogger({ service: 's', level: 'warn', destination: c.dest });
    log.info('no');
    log.error('yes');
    expect(c.lines.map((l) => l['msg'])).toEqual(['yes']);
  });
});

describe('routeConsole', () => {
  it('console output (what Hocuspocus prints) becomes one JSON line each, errors with their stack in err', () => {
    const c = capture();
    const restore = routeConsole(createLogger({ service: 's', destination: c.dest }));
    try {
      console.log();
      console.log('  Hocuspocus v4 running at:');
      console.error('closing connection abc because of exception', new Error('boom\nsecond line'));
      console.warn('Hocuspocus: closing connection %s: limit', 'c1');
    } finally {
      restore();
    }
    expect(c.raw).toHaveLength(3);
    expect(c.lines[0]).toMatchObject({ level: 'info', source: 'console', msg: 'Hocuspocus v4 running at:' });
    expect(c.lines[1]).toMatchObject({ level: 'error', msg: 'closing connection abc because of exception', err: { message: 'boom\nsecond line' } });
    expect(String((c.lines[1]!['err'] as { stack: string }).stack)).toContain('log.test.ts');
    expect(c.lines[2]).toMatchObject({ level: 'warn', msg: 'Hocuspocus: closing connection c1: limit' });
  });
});
