// Bench viewers in a child process: `count` read-only peers of one draft that report, over IPC,
// when each title `seq-<i>` arrives (process.hrtime, the same monotonic clock in every process).
// argv[2] is JSON: { kind: 'weft' | 'relay', url, draftId, token, count, drafts? } — with
// `drafts`, `count` peers join each of those drafts instead (memory.bench.ts).
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { WeftPeer } from '@weft/client';

interface Args { kind: 'weft' | 'relay'; url: string; draftId: string; token: string; count: number; drafts?: string[] }
const a = JSON.parse(process.argv[2] ?? '{}') as Args;
const out: [number, number, string][] = []; // [viewer, seq, ns as string]

function watch(doc: Y.Doc, v: number): void {
  let last = -1;
  const meta = doc.getMap('meta');
  doc.on('update', () => {
    const t = process.hrtime.bigint();
    const title = meta.get('title');
    if (typeof title !== 'string' || !title.startsWith('seq-')) return;
    const seq = Number(title.slice(4));
    if (seq !== last) {
      last = seq;
      out.push([v, seq, t.toString()]);
    }
  });
}

async function joinRelay(): Promise<Y.Doc> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url: a.url, WebSocketPolyfill: WebSocket, delay: 50, minDelay: 50 } as never);
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: a.draftId, document: doc, token: a.token });
  const synced = new Promise<void>((r) => provider.on('synced', ({ state }: { state: boolean }) => state && r()));
  provider.attach();
  await synced;
  return doc;
}

if (a.drafts) {
  for (const draftId of a.drafts) for (let v = 0; v < a.count; v++) await WeftPeer.join({ url: a.url, draftId, token: a.token, timeoutMs: 60_000 });
} else {
  for (let v = 0; v < a.count; v++) {
    const doc = a.kind === 'weft' ? (await WeftPeer.join({ url: a.url, draftId: a.draftId, token: a.token, timeoutMs: 60_000 })).doc : await joinRelay();
    watch(doc, v);
  }
}
process.send?.({ type: 'ready' });
setInterval(() => {
  if (out.length > 0) process.send?.({ type: 'seen', rows: out.splice(0) });
}, 20);
process.on('message', (m: { type?: string }) => {
  if (m.type === 'exit') {
    if (out.length > 0) process.send?.({ type: 'seen', rows: out.splice(0) });
    setTimeout(() => process.exit(0), 50);
  }
});
// A parent that dies without saying so (a killed bench) must not leave its viewers reconnecting forever.
process.on('disconnect', () => process.exit(0));
