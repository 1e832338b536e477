import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBuildEvalArgs, parseModelSpec } from './build-eval.ts';

const NOW = new Date('2026-12-01T15:00:00.000Z');
const parse = (argv: string[], env: Record<string, string> = {}) => parseBuildEvalArgs(argv, env, NOW);

describe('weft build-eval: the command line', () => {
  it('reads --model specs; keys from key= or key-env=, never both', () => {
    expect(parseModelSpec('url=https://api.example.com/v1/,model=gpt-x,key=k1', {})).toEqual({ ok: true, value: { name: 'gpt-x', url: 'https://api.example.com/v1', model: 'gpt-x', key: 'k1', stream: true } });
    expect(parseModelSpec('model=@cf/meta/llama-3.3,url=http://127.0.0.1:9/v1,key-env=MY_KEY,stream=0,name=llama', { MY_KEY: ' s3 ' })).toEqual({ ok: true, value: { name: 'llama', url: 'http://127.0.0.1:9/v1', model: '@cf/meta/llama-3.3', key: 's3', stream: false } });
    // A comma inside a value stays in it: only ",<known>=" splits.
    expect(parseModelSpec('url=http://h/v1,model=a,b', {})).toMatchObject({ ok: true, value: { model: 'a,b' } });
    for (const [spec, why] of [
      ['model=m', /url=/], ['url=ftp://h/v1,model=m', /http or https/], ['url=http://h/v1', /model=/],
      ['url=http://h/v1,model=m,key=a,key-env=B', /not both/], ['url=http://h/v1,model=m,key-env=NOPE', /no set environment variable/],
      ['url=http://h/v1,model=m,key-env=toString', /no set environment variable/], ['url=http://h/v1,model=m,temperature=2', /not one of/],
      ['url=http://h/v1,model=m,model=n', /twice/], ['url=http://h/v1,model=m,stream=maybe', /stream=/],
    ] as const) expect(parseModelSpec(spec, {}), spec).toMatchObject({ ok: false, message: expect.stringMatching(why) });
  });

  it('runs in memory by default; --url with a token runs against that server', () => {
    expect(parse(['--model', 'url=http://h/v1,model=a'])).toEqual({ ok: true, value: {
      models: [{ name: 'a', url: 'http://h/v1', model: 'a', key: null, stream: true }], briefsFile: null,
      out: '.weft/build-eval/2026-12-01T15-00-00-000Z', target: { kind: 'memory' }, rounds: 3, turnTimeoutMs: 300_000, json: false,
    } });
    const s = parse(['--model', 'url=http://h/v1,model=a', '--url', 'http://127.0.0.1:8080/', '--briefs', 'b.json', '--out', 'o', '--rounds', '0', '--timeout', '5000', '--json'], { WEFT_TOKEN: 't' });
    expect(s).toMatchObject({ ok: true, value: { target: { kind: 'server', url: 'http://127.0.0.1:8080', token: 't' }, briefsFile: 'b.json', out: 'o', rounds: 0, turnTimeoutMs: 5000, json: true } });
    // WEFT_URL alone does not turn a memory eval into a server one.
    expect(parseBuildEvalArgs(['--model', 'url=http://h/v1,model=a'], { WEFT_URL: 'http://x', WEFT_TOKEN: 't' })).toMatchObject({ ok: true, value: { target: { kind: 'memory' } } });
    expect(parse(['--help'])).toEqual({ ok: true, help: true });
  });

  it('names two entries of one model apart by host, and refuses what it cannot tell apart', () => {
    const r = parse(['--model', 'url=http://a.example/v1,model=m', '--model', 'url=http://b.example/v1,model=m']);
    expect(r.ok && 'value' in r ? r.value.models.map((m) => m.name) : r).toEqual(['m @ a.example', 'm @ b.example']);
    expect(parse(['--model', 'url=http://a.example/v1,model=m', '--model', 'url=http://a.example/v1,model=m'])).toMatchObject({ ok: false, message: expect.stringMatching(/name=/) });
  });

  it('says what is wrong with bad arguments', () => {
    for (const [argv, why] of [
      [[], /at least one --model/], [['--model', 'url=http://h/v1,model=a', '--rounds', '11'], /--rounds/],
      [['--model', 'url=http://h/v1,model=a', '--timeout', '5'], /--timeout/], [['--model', 'url=http://h/v1,model=a', '--token', 't'], /goes with --url/],
      [['--model', 'url=http://h/v1,model=a', '--url', 'http://s'], /--token/], [['--model', 'url=http://h/v1,model=a', '--url', 'javascript:x', '--token', 't'], /http\(s\)/],
      [['--model', 'url=http://h/v1,model=a', 'extra'], /positional/i], [['--bogus'], /bogus/],
    ] as const) expect(parse([...argv]), argv.join(' ')).toMatchObject({ ok: false, message: expect.stringMatching(why) });
  });

  it('never throws on hostile argv or specs (fuzz)', () => {
    const word = fc.oneof(fc.string(), fc.constantFrom('--model', '--url', '--token', '--briefs', '--rounds', '--json', 'url=http://h/v1,model=m', 'key-env=__proto__', 'url=,model=', '='));
    fc.assert(fc.property(fc.array(word, { maxLength: 8 }), fc.dictionary(fc.string(), fc.string()), (argv, env) => {
      const r = parseBuildEvalArgs(argv, env, NOW);
      expect(typeof r.ok).toBe('boolean');
      if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
    }), { numRuns: 300 });
    fc.assert(fc.property(fc.string(), (spec) => {
      const r = parseModelSpec(spec, {});
      if (r.ok) expect(r.value.url).toMatch(/^https?:\/\//);
    }), { numRuns: 300 });
  });
});
