import { describe, expect, it } from 'vitest';
import { Tickets, TICKET_TTL_MS } from './tickets.ts';

describe('view tickets', () => {
  it('are bound to one draft, expire after 10 minutes, and survive a restart with the same secret', () => {
    let t = 1_000_000;
    const a = new Tickets('s3cret', () => t);
    const { ticket } = a.mint('home');
    expect(a.valid(ticket, 'home')).toBe(true);
    expect(a.valid(ticket, 'other')).toBe(false);
    expect(new Tickets('s3cret', () => t).valid(ticket, 'home')).toBe(true);
    expect(new Tickets('different', () => t).valid(ticket, 'home')).toBe(false);
    expect(a.valid(ticket.slice(0, -2) + 'AA', 'home')).toBe(false);
    expect(a.valid(null, 'home')).toBe(false);
    t += TICKET_TTL_MS;
    expect(a.valid(ticket, 'home')).toBe(false);
  });

  it("carry, signed, what the minter may read (for a page's $source lists)", () => {
    const a = new Tickets('s3cret', () => 1);
    expect(a.readable(a.mint('home').ticket, 'home')).toEqual(['home']);
    expect(a.readable(a.mint('home', '*').ticket, 'home')).toBe('*');
    expect(a.readable(a.mint('home', ['blog', 'shop']).ticket, 'home')).toEqual(['home', 'blog', 'shop']);
    const t = a.mint('home', ['blog']).ticket;
    const parts = t.split('.');
    parts[2] = Buffer.from('home,secret-draft').toString('base64url');
    expect(a.readable(parts.join('.'), 'home')).toBeNull(); // the scope part is under the signature
    expect(a.readable(t, 'other')).toBeNull();
  });
});
