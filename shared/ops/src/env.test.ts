import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bool, ConfigError, int, list, oneOf, optional, optionalUrl, origins, parseEnv, renderEnvDocs, str, url } from './env.ts';

const spec = {
  PORT: int('port', 8080, 0, 65535),
  NAME: str('name', 'weft'),
  TOKEN: optional('token', { secret: true }),
  DB: url('database', ['postgres']),
  BUS: optionalUrl('bus', ['nats']),
  LEVEL: oneOf('level', ['info', 'debug'], 'info'),
  SERVICES: list('services', ['a', 'b'], ['a', 'b']),
  STREAM: bool('stream', true),
} as const;
const base = { DB: 'postgres://u:pw@h/db' };

/** The one line a bad value gives, or null if it parsed. */
const problem = (env: Record<string, string>): string | null => {
  try {
    parseEnv(spec, env);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
};

describe('parseEnv', () => {
  it('defaults, typed values, frozen; an empty value counts as unset', () => {
    const c = parseEnv(spec, { ...base, PORT: '', STREAM: '0', SERVICES: ' b , a,b' });
    expect(c).toEqual({ PORT: 8080, NAME: 'weft', TOKEN: null, DB: base.DB, BUS: null, LEVEL: 'info', SERVICES: new Set(['b', 'a']), STREAM: false });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('a bad value is named in one line, with the rule and what was given', () => {
    expect(problem({ ...base, PORT: '80x' })).toBe('PORT: must be an integer from 0 to 65535, got "80x"');
    expect(problem({ ...base, PORT: '70000' })).toBe('PORT: must be an integer from 0 to 65535, got "70000"');
    expect(problem({ ...base, LEVEL: 'loud' })).toBe('LEVEL: must be one of info, debug, got "loud"');
    expect(problem({ ...base, SERVICES: 'a,c' })).toBe('SERVICES: must list some of a, b (unknown: c), got "a,c"');
    expect(problem({ ...base, STREAM: 'maybe' })).toBe('STREAM: must be 1/true/yes or 0/false/no, got "maybe"');
    expect(problem({})).toBe('DB: is required (a postgres://… URL)');
  });

  it('URLs and secrets are never echoed (they may hold passwords)', () => {
    expect(problem({ DB: 'mysql://root:hunter2@h/db' })).toBe('DB: must be a postgres URL, not mysql (value hidden)');
    expect(problem({ ...base, BUS: 'not a url hunter2' })).toBe('BUS: must be a URL (nats://…) (value hidden)');
  });

  it('only own properties of env are read', () => {
    const env = Object.create({ PORT: '1' }) as Record<string, string>;
    env['DB'] = base.DB;
    expect(parseEnv(spec, env).PORT).toBe(8080);
  });

  it('fuzz: any value gives a typed result or one ConfigError line, never another throw', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...Object.keys(spec)), fc.string({ maxLength: 200 })), (env) => {
      try {
        const c = parseEnv(spec, { ...base, ...env });
        expect(Number.isInteger(c.PORT)).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as Error).message).not.toMatch(/\n/);
        expect(Object.keys(spec)).toContain((e as ConfigError).variable);
        if ((e as ConfigError).variable === 'DB' || (e as ConfigError).variable === 'BUS') expect((e as Error).message).toMatch(/value hidden|required/);
      }
    }), { numRuns: 500 });
  });
});

describe('origins', () => {
  const o = { CORS: origins('cors') } as const;
  it('unset is none; * is any; each origin is kept as a browser sends it', () => {
    expect(parseEnv(o, {}).CORS).toEqual([]);
    expect(parseEnv(o, { CORS: ' * ' }).CORS).toEqual(['*']);
    expect(parseEnv(o, { CORS: 'https://App.Example.com:443/, http://localhost:5173' }).CORS).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });
  it('anything but scheme and host (a path, credentials, another scheme, * among others) is refused in one line', () => {
    for (const bad of ['https://a.example/app', 'ftp://a.example', 'https://u:p@a.example', 'a.example', 'https://a.example?x=1', '*,https://a.example']) {
      expect(() => parseEnv(o, { CORS: bad }), bad).toThrow(/^CORS: must list origins like https:\/\/app\.example\.com/);
    }
  });
});

describe('renderEnvDocs', () => {
  it('one row per variable with what it accepts and its default; secrets show none', () => {
    const md = renderEnvDocs([{ title: 'T', intro: 'Intro.', spec }], '# Config');
    expect(md).toContain('| `PORT` | an integer from 0 to 65535 | `8080` | port |');
    expect(md).toContain('| `TOKEN` | string (secret) | — | token |');
    expect(md.match(/^\| `/gm)).toHaveLength(Object.keys(spec).length);
  });
});
