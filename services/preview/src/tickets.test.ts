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
});
