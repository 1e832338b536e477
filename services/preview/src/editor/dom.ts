// A tiny element builder: text goes in as text nodes (never HTML), so draft content cannot inject.
export type Child = Node | string | null | undefined | false;
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | boolean | undefined> = {}, ...kids: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') e.className = String(v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
}

/** A stable colour per actor id (presence outlines and avatars). */
export function colorOf(id: string): string {
  let x = 0;
  for (let i = 0; i < id.length; i++) x = (x * 31 + id.charCodeAt(i)) >>> 0;
  const palette = ['#e11d48', '#7c3aed', '#0891b2', '#ea580c', '#16a34a', '#db2777', '#2563eb', '#ca8a04'];
  return palette[x % palette.length] ?? '#4f46e5';
}

export const initials = (s: string): string => s.replace(/[^A-Za-z0-9]+/g, ' ').trim().split(' ').map((w) => w[0] ?? '').join('').slice(0, 2).toUpperCase() || '?';
