// Auth over a real token table (PGlite): a token checked again after its cache time gives the same
// principal object while nothing about it changed (live connections keep it for their life, so
// peers of one shared token share one), and still notices a revocation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '@weft/migrations';
import { openPGlite, TokenStore } from '@weft/store';
import { Auth } from './principal.ts';

describe('Auth', () => {
  let conn: Awaited<ReturnType<typeof openPGlite>>;
  let tokens: TokenStore;
  beforeAll(async () => {
    conn = await openPGlite(undefined);
    await migrateToLatest(conn.db);
    tokens = new TokenStore(conn.db);
  });
  afterAll(async () => { await conn.close(); });

  it('[AU1] an unchanged token checked again after the cache time is the same principal; another token, or a revoked one, is not', async () => {
    const clock = { t: 1_000_000 };
    const auth = new Auth(null, tokens, () => clock.t);
    const scopes = { a: ['read' as const], b: ['read' as const, 'write' as const] };
    const one = await tokens.mint({ actorId: 'ann', actorKind: 'human', name: 'ann', scopes });
    const two = await tokens.mint({ actorId: 'ann', actorKind: 'human', name: 'ann', scopes });
    const first = await auth.fromToken(one.token);
    clock.t += 5000; // past the 1 s cache: read from the table again
    const again = await auth.fromToken(one.token);
    expect(again).toBe(first);
    const other = await auth.fromToken(two.token);
    expect(other).not.toBe(first);
    expect(other.tokenId).toBe(two.id);
    // The live doors' batch re-check answers with the same objects, and sees the revocation too.
    clock.t += 5000;
    const many = await auth.verifyMany([one.token, two.token, one.token, 'wft_unknown']);
    expect(many.get(one.token)).toBe(first);
    expect(many.get(two.token)).toBe(other);
    expect(many.get('wft_unknown')).toBeNull();
    await tokens.revoke(one.id);
    clock.t += 5000;
    await expect(auth.fromToken(one.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    clock.t += 5000;
    expect((await auth.verifyMany([one.token, two.token])).get(one.token)).toBeNull();
  });
});
