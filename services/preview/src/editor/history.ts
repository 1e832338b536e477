// The feed starts with the recent history from the log (everyone's steps, repairs and refusals),
// newest first, a page at a time ("Show earlier activity"); the live stream (build.js) adds what
// comes after, and the two meet without duplicates (build.js keys items by version).
import { h } from './dom.ts';
import type { StepLike } from './sentences.ts';

interface LoggedStep extends StepLike { createdAt: string; notes: { rule: string; path: string; message: string }[]; refused: { path: string; message: string }[] }

export interface HistoryOptions {
  token: string;
  /** build.js's feed (`history: true` items go below the live ones). */
  feed: (item: unknown) => void;
  describe: (step: StepLike) => string;
}

const PAGE = 30;

/** Order kept in step with an added or removed section is bookkeeping, not a repair (build.js too). */
const isOrderBookkeeping = (n: { rule: string; path: string }): boolean => n.rule === 'rewrote_path' && /^\/order\/(-|\d+)$/.test(n.path);

/** Loads the page of the log that ends at `before` (null: at the head) into the feed. */
export async function loadHistory(o: HistoryOptions, before: number | null): Promise<void> {
  const base = (document.body.getAttribute('data-session-url') || location.origin).replace(/\/$/, '');
  const api = `${base}/v1/drafts/${encodeURIComponent(document.body.getAttribute('data-draft-id') ?? '')}/events`;
  const get = async (after: number, limit: number): Promise<{ steps: LoggedStep[]; head: number } | null> => {
    const res = await fetch(`${api}?after=${after}&limit=${limit}`, { headers: { authorization: `Bearer ${o.token}` }, cache: 'no-store' }).catch(() => null);
    return res?.ok ? ((await res.json()) as { steps: LoggedStep[]; head: number }) : null;
  };
  const end = before ?? (await get(0, 1))?.head ?? 0;
  const from = Math.max(0, end - PAGE);
  const page = end > 0 ? await get(from, end - from) : null;
  if (!page) return;
  for (const st of [...page.steps].reverse()) {
    st.notes = st.notes.filter((n) => !isOrderBookkeeping(n));
    const lines = [...st.notes.map((n) => ({ path: n.path, text: `repaired: ${n.message}` })), ...st.refused.map((x) => ({ path: x.path, text: `refused: ${x.message}` }))];
    o.feed({ kind: st.refused.length ? 'refused' : st.notes.length ? 'repair' : 'applied', actor: st.actor, title: o.describe(st), version: st.version, at: st.createdAt, lines, history: true });
  }
  document.getElementById('wb-feed-more')?.remove();
  if (from > 0) {
    const more = h('button', { type: 'button', id: 'wb-feed-more', class: 'wb-quiet wb-feed-more', title: 'Load the previous page of the log' }, 'Show earlier activity');
    more.addEventListener('click', () => { more.remove(); void loadHistory(o, from); });
    document.getElementById('wb-feed')?.after(more);
  }
}
