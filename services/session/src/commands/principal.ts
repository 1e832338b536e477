import { createHash, timingSafeEqual } from 'node:crypto';
import { scopeAllows } from '@weft/protocol';
import type { Scope } from '@weft/protocol';
import type { TokenStore } from '@weft/store';
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

  private async verify(token: string): Promise<Principal | null> {
    if (token.length === 0 || token.length > 200) return null;
    const digest = sha(token);
    if (this.adminDigest && timingSafeEqual(digest, this.adminDigest)) {
      return { actor: { id: 'admin', kind: 'admin' }, admin: true, scopes: { '*': ['read', 'write'] }, tokenId: 'admin', expiresAt: null };
    }
    const key = digest.toString('hex');
    const now = this.now();
    const hit = this.cache.get(key);
    let p: Principal | null;
    if (hit && now - hit.at < CACHE_MS) p = hit.p;
    else {
      const rec = await this.tokens.verify(token);
      p = rec
        ? { actor: { id: rec.actorId, kind: rec.actorKind }, admin: rec.actorKind === 'admin', scopes: rec.scopes, tokenId: rec.id, expiresAt: rec.expiresAt ? rec.expiresAt.getTime() : null }
        : null;
      // Unchanged since the last check: the same object again. Live connections keep their
      // principal for their whole life, so every peer of a shared token would otherwise hold its
      // own copy of the token's scopes.
      if (p && hit?.p && samePrincipal(hit.p, p)) p = hit.p;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, { p, at: now });
    }
    if (p && p.expiresAt !== null && p.expiresAt <= now) return null;
    return p;
  }
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
