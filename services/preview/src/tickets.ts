// View tickets: a page load (the iframe) cannot send an Authorization header, and the bearer token
// never goes in a URL. So the Build view trades its token for a random, draft-bound ticket valid
// 10 minutes (POST /preview/:id/ticket) and loads `/preview/:id?ticket=…`. A leaked ticket shows
// one draft's preview for at most 10 minutes and grants nothing else.
import { randomBytes } from 'node:crypto';

export const TICKET_TTL_MS = 10 * 60_000;

export class Tickets {
  private readonly byId = new Map<string, { draftId: string; expiresAt: number }>();
  private readonly now: () => number;
  constructor(now: () => number) { this.now = now; }

  mint(draftId: string): { ticket: string; expiresAt: number } {
    this.sweep();
    const ticket = randomBytes(24).toString('base64url');
    const expiresAt = this.now() + TICKET_TTL_MS;
    this.byId.set(ticket, { draftId, expiresAt });
    return { ticket, expiresAt };
  }

  valid(ticket: string | null, draftId: string): boolean {
    if (!ticket) return false;
    const t = this.byId.get(ticket);
    return t !== undefined && t.draftId === draftId && t.expiresAt > this.now();
  }

  private sweep(): void {
    if (this.byId.size < 1000) return;
    const now = this.now();
    for (const [k, v] of this.byId) if (v.expiresAt <= now) this.byId.delete(k);
  }
}
