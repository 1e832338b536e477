// Bearer tokens: only the sha256 of the secret is stored, so a leaked table grants nothing.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { DB, TokensTable } from './schema.ts';
import type { ActorKind, Scope, TokenRecord } from './types.ts';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toToken(r: Selectable<TokensTable>): TokenRecord {
  return {
    id: r.id, actorId: r.actor_id, actorKind: r.actor_kind, name: r.name,
    scopes: r.scopes as Record<string, Scope[]>, createdAt: r.created_at, expiresAt: r.expires_at, revokedAt: r.revoked_at,
  };
}

export class TokenStore {
  readonly db: Kysely<DB>;
  constructor(db: Kysely<DB>) { this.db = db; }

  /** Returns the secret once; it is never stored. */
  async mint(t: { actorId: string; actorKind: ActorKind; name: string; scopes: Record<string, Scope[]>; expiresAt?: Date | null }): Promise<{ token: string; id: string }> {
    const token = `wft_${randomBytes(32).toString('base64url')}`;
    const id = hashToken(token);
    await this.db.insertInto('tokens').values({
      id, actor_id: t.actorId, actor_kind: t.actorKind, name: t.name, scopes: t.scopes, expires_at: t.expiresAt ?? null,
    }).execute();
    return { token, id };
  }

  /** The token's record, or null when unknown, revoked or expired (by the database clock). */
  async verify(token: string): Promise<TokenRecord | null> {
    if (!token.startsWith('wft_')) return null;
    const row = await this.db.selectFrom('tokens').selectAll().where('id', '=', hashToken(token))
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
    return row === undefined ? null : toToken(row);
  }

  /** Many tokens in one query (live connections re-checking together): the live ones' records, by token. */
  async verifyMany(tokens: readonly string[]): Promise<Map<string, TokenRecord>> {
    const byHash = new Map<string, string>();
    for (const t of tokens) if (t.startsWith('wft_')) byHash.set(hashToken(t), t);
    const out = new Map<string, TokenRecord>();
    if (byHash.size === 0) return out;
    const rows = await this.db.selectFrom('tokens').selectAll().where('id', 'in', [...byHash.keys()])
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
      .execute();
    for (const r of rows) out.set(byHash.get(r.id)!, toToken(r));
    return out;
  }

  /** true when a live token was revoked now. */
  async revoke(id: string): Promise<boolean> {
    const r = await this.db.updateTable('tokens').set({ revoked_at: sql<Date>`now()` }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async get(id: string): Promise<TokenRecord | null> {
    const row = await this.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toToken(row);
  }
}
