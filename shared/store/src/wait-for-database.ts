// A process that starts beside its database (compose, systemd, a CI job) may come up first: at start
// it waits for Postgres to accept connections, saying so, instead of failing on its first query.
// Only a database that is not there yet is waited for; a wrong password or database name is final.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/** Postgres was still unreachable when the wait ran out, or refused us for good. */
export class DatabaseUnreachable extends Error {}

/** Errors of a database that may still come: nothing listening yet, or a server still starting. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', '57P03', '53300']);

const codeOf = (e: unknown): string => String((e as { code?: unknown } | null)?.code ?? '');
const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** host:port of a Postgres URL, never its credentials. */
function addressOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export interface WaitOptions {
  /** The URL the pool connects to (only its host and port are named). */
  url: string;
  /** How long to keep trying, ms; 0 = one try. */
  waitMs: number;
  /** Each failed try that will be retried: a line for the log ("waiting for Postgres at host:port") and why. */
  onWait?: (message: string, fields: { reason: string; waitedMs: number }) => void;
}

/** Resolves once `select 1` answers; rejects with DatabaseUnreachable naming the address and what to check. */
export async function waitForDatabase(db: Kysely<any>, o: WaitOptions): Promise<void> {
  const start = Date.now();
  let delay = 250;
  for (;;) {
    try {
      await sql`select 1`.execute(db);
      return;
    } catch (e) {
      const waited = Date.now() - start;
      const where = addressOf(o.url);
      if (!TRANSIENT.has(codeOf(e))) {
        throw new DatabaseUnreachable(`Postgres at ${where} refused the connection: ${reasonOf(e)}. Check DATABASE_URL (user, password, database name).`, { cause: e });
      }
      if (waited + delay > o.waitMs) {
        throw new DatabaseUnreachable(`Postgres at ${where} did not answer within ${Math.round(o.waitMs / 1000)} s (${reasonOf(e)}). Is it running, and is DATABASE_URL right? WEFT_START_WAIT_S sets how long a process waits for it at start.`, { cause: e });
      }
      o.onWait?.(`waiting for Postgres at ${where}`, { reason: reasonOf(e), waitedMs: waited });
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 2000);
    }
  }
}
