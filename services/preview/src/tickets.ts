// View tickets: a page load (the iframe) cannot send an Authorization header, and the bearer token
// never goes in a URL. So the Build view trades its token for a short-lived signed ticket
// (POST /preview/:id/ticket) and loads `/preview/:id?ticket=…`. The ticket is
// `<expiry>.<nonce>.<hmac(draftId, expiry, nonce)>`: bound to one draft, valid 10 minutes, and
// stateless, so a restarted preview (same secret) still accepts the tickets of open pages.
// A leaked ticket shows one draft's preview for at most 10 minutes and grants nothing else.
// The ticket also carries (signed) which drafts its minter may read, so a `$source: drafts` list
// on the page shows the reader only what they could open themselves: `*`, or up to 50 ids.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TICKET_TTL_MS = 10 * 60_000;
const MAX_IDS = 50;

/** Drafts a reader may see: every draft, or these ids. */
export type Readable = '*' | readonly string[];

export class Tickets {
  private readonly secret: Buffer;
  private readonly now: () => number;
  constructor(secret: string | Buffer | null, now: () => number) {
    this.secret = secret === null ? randomBytes(32) : Buffer.from(secret);
    this.now = now;
  }

  mint(draftId: string, readable: Readable = [draftId]): { ticket: string; expiresAt: number } {
    const expiresAt = this.now() + TICKET_TTL_MS;
    const ids = readable === '*' ? '*' : Buffer.from([...new Set([draftId, ...readable])].slice(0, MAX_IDS).join(',')).toString('base64url');
    const body = `${expiresAt.toString(36)}.${randomBytes(9).toString('base64url')}.${ids}`;
    return { ticket: `${body}.${this.sign(draftId, body)}`, expiresAt };
  }

  valid(ticket: string | null, draftId: string): boolean {
    if (!ticket || ticket.length > 200) return false;
    const i = ticket.lastIndexOf('.');
    if (i < 0) return false;
    const body = ticket.slice(0, i);
    const mac = Buffer.from(ticket.slice(i + 1), 'base64url');
    const want = Buffer.from(this.sign(draftId, body), 'base64url');
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) return false;
    const exp = parseInt(body.split('.')[0] ?? '', 36);
    return Number.isFinite(exp) && exp > this.now();
  }

  /** What the ticket's minter may read (null for an invalid ticket; a ticket without the part: only its draft). */
  readable(ticket: string | null, draftId: string): Readable | null {
    if (!this.valid(ticket, draftId)) return null;
    const ids = (ticket as string).split('.')[2];
    if (ids === undefined || ticket!.split('.').length < 4) return [draftId];
    return ids === '*' ? '*' : Buffer.from(ids, 'base64url').toString().split(',').filter((s) => s !== '');
  }

  private sign(draftId: string, body: string): string {
    return createHmac('sha256', this.secret).update(`${draftId}\n${body}`).digest('base64url');
  }
}
