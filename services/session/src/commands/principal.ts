import { createHash, timingSafeEqual } from 'node:crypto';
import { scopeAllows } from '@weft/protocol';
import type { Scope } from '@weft/protocol';
import type { TokenRecord, TokenStore } from '@weft/store';
import type { Actor } from '../rooms/types.ts';
import { WeftError } from './errors.ts';

export interface Principal {
  actor: Actor;
  admin: boolean;
  /** `{ "<draftId>" | "*": ["read","write"] }` */
  scopes: Record<string, Scope[]>;
  tokenId: string;
  expiresAt: number | null;
}

// 1 s: with the live doors re-checking every second, a revoked token stops serving within 2 s.
const CACHE_MS = 1000;

/**
 * Bearer tokens: the admin token from config, or tokens minted by it (stored hashed). Verified
 * tokens are cached for 1 s; expiry is re-checked on every use, revocation within the cache time.
 */
export class Auth {
  private readonly adminDigest: Buffer | null;
  private readonly tokens: TokenStore;
  private readonly now: () => number;
  private readonly cache = new Map<string, { p: Principal | null; at: number }>();

  constructor(adminToken: string | null, tokens: TokenStore, now: () => number) {
    this.adminDigest = adminToken ? sha(adminToken) : null;
    this.tokens = tokens;
    this.now = now;
  }

  /** From an `Authorization` header value (HTTP, SSE, MCP over HTTP). */
  async fromHeader(h: string | undefined): Promise<Principal> {
    if (!h || !h.startsWith('Bearer ')) throw new WeftError('UNAUTHORIZED', 'Send "Authorization: Bearer <token>"; mint tokens with POST /v1/tokens (admin).');
    return this.fromToken(h.slice(7).trim());
  }

  async fromToken(token: string): Promise<Principal> {
    const p = await this.verify(token);
    if (!p) throw new WeftError('UNAUTHORIZED', 'The token is unknown, revoked or expired.');
    return p;
  }

  /**
   * Many tokens at once, for the live doors' periodic re-check: one query for the tokens not in the
   * cache (3,000 peers on their own tokens made 3,000 queries a second one by one). Every token given
   * is in the answer: its principal, or null when unknown, revoked or expired.
   */
  async verifyMany(tokens: Iterable<string>): Promise<Map<string, Principal | null>> {
    const now = this.now();
    const out = new Map<string, Principal | null>();
    const misses: { token: string; key: string }[] = [];
    for (const token of tokens) {
      if (out.has(token)) continue;
      const k = this.known(token, now);
      out.set(token, k.p ?? null);
      if (k.p === undefined) misses.push({ token, key: k.key });
    }
    if (misses.length > 0) {
      const recs = await this.tokens.verifyMany(misses.map((m) => m.token));
      for (const { token, key } of misses) {
        const rec = recs.get(token);
        out.set(token, live(this.remember(key, rec ? principalOf(rec) : null, now), now));
      }
    }
    return out;
  }

  private async verify(token: string): Promise<Principal | null> {
    const now = this.now();
    const k = this.known(token, now);
    if (k.p !== undefined) return k.p;
    const rec = await this.tokens.verify(token);
    return live(this.remember(k.key, rec ? principalOf(rec) : null, now), now);
  }

  /**
   * The admin token, a malformed one, or a fresh cache entry (`p`); `p` undefined when the store
   * must be asked. `key` is the token's cache key, hashed once for both.
   */
  private known(token: string, now: number): { key: string; p: Principal | null | undefined } {
    if (token.length === 0 || token.length > 200) return { key: '', p: null };
    const digest = sha(token);
    if (this.adminDigest && timingSafeEqual(digest, this.adminDigest)) {
      return { key: '', p: { actor: { id: 'admin', kind: 'admin' }, admin: true, scopes: { '*': ['read', 'write'] }, tokenId: 'admin', expiresAt: null } };
    }
    const key = digest.toString('hex');
    const hit = this.cache.get(key);
    return { key, p: hit && now - hit.at < CACHE_MS ? live(hit.p, now) : undefined };
  }

  /** Caches a checked principal and returns the one to use. */
  private remember(key: string, fresh: Principal | null, now: number): Principal | null {
    // Unchanged since the last check: the same object again. Live connections keep their
    // principal for their whole life, so every peer of a shared token would otherwise hold its
    // own copy of the token's scopes.
    const hit = this.cache.get(key);
    const p = fresh && hit?.p && samePrincipal(hit.p, fresh) ? hit.p : fresh;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { p, at: now });
    return p;
  }
}

function principalOf(rec: TokenRecord): Principal {
  return { actor: { id: rec.actorId, kind: rec.actorKind }, admin: rec.actorKind === 'admin', scopes: rec.scopes, tokenId: rec.id, expiresAt: rec.expiresAt ? rec.expiresAt.getTime() : null };
}

/** Expiry is checked on every use, also of a cached principal. */
function live(p: Principal | null, now: number): Principal | null {
  return p && p.expiresAt !== null && p.expiresAt <= now ? null : p;
}

function samePrincipal(a: Principal, b: Principal): boolean {
  return a.tokenId === b.tokenId && a.actor.id === b.actor.id && a.actor.kind === b.actor.kind && a.admin === b.admin
    && a.expiresAt === b.expiresAt && JSON.stringify(a.scopes) === JSON.stringify(b.scopes);
}

/** Own keys only: a draft named `__proto__` or `constructor` is a draft id, never a prototype member. */
export function can(p: Principal, draftId: string, scope: Scope): boolean {
  return p.admin || scopeAllows(p.scopes, draftId, scope);
}

/** Read is required even to learn a draft exists: no token, no data, no existence leak. */
export function requireScope(p: Principal, draftId: string, scope: Scope): void {
  if (!can(p, draftId, 'read')) throw new WeftError('NOT_FOUND', `No draft "${draftId}" (or no access to it).`);
  if (scope === 'write' && !can(p, draftId, 'write')) throw new WeftError('FORBIDDEN', 'This token can read this draft but not write it; ask for a token with the "write" scope.');
}

function sha(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
