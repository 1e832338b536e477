import type { ServerResponse } from 'node:http';
import { asOneRun } from '@weft/protocol';
import type { AgUiEvent } from '@weft/protocol';

interface Client {
  res: ServerResponse;
  lastVersion: number;
  /** Re-checked every second: false ends the stream with an error event (revoked or expired token). */
  stillValid: (() => Promise<boolean>) | null;
  /** While the backlog is read from the log, live frames wait here in version order. */
  held: { version: number | null; frame: string }[] | null;
  heldBytes: number;
  /** Reads the stream as one AG-UI run (`?as=run`): its frames go through asOneRun. */
  asRun: boolean;
}

export interface AddOptions {
  /** The client receives versions after this one. */
  lastVersion: number;
  /** Live frames wait while the backlog is read (release() ends it). */
  buffering?: boolean;
  stillValid?: (() => Promise<boolean>) | null;
  asRun?: boolean;
}

export interface SseHandle {
  /** Ends buffering: frames held for versions > `sentVersion` are written, then live. */
  release(sentVersion: number): void;
  remove(): void;
}

/**
 * Server-sent AG-UI events per draft. `id:` is the draft version, so a reconnecting client's
 * Last-Event-ID resumes from the log with no gap. Slow clients are buffered by Node's stream;
 * a client whose buffer passes the limit is dropped and reconnects with Last-Event-ID.
 */
export class SseHub {
  private readonly clients = new Map<string, Set<Client>>();
  /** Which of these drafts still exist (null: the store could not answer, so no stream ends). */
  private readonly existing: ((draftIds: string[]) => Promise<Set<string> | null>) | null;
  /** Bytes a client may leave unread (live frames, held frames and the backlog alike). */
  static readonly MAX_BUFFER = 4 * 1024 * 1024;
  private recheck: NodeJS.Timeout | null = null;

  constructor(o: { existing?: (draftIds: string[]) => Promise<Set<string> | null> } = {}) {
    this.existing = o.existing ?? null;
  }

  get count(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  has(draftId: string): boolean {
    return (this.clients.get(draftId)?.size ?? 0) > 0;
  }

  open(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 1000\n\n');
  }

  /** Registers a client after its backlog was written; it receives versions > lastVersion. */
  add(draftId: string, res: ServerResponse, o: AddOptions): SseHandle {
    const c: Client = { res, lastVersion: o.lastVersion, stillValid: o.stillValid ?? null, held: o.buffering ? [] : null, heldBytes: 0, asRun: o.asRun ?? false };
    this.startRecheck();
    let set = this.clients.get(draftId);
    if (!set) this.clients.set(draftId, (set = new Set()));
    set.add(c);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    const remove = (): void => {
      clearInterval(keepAlive);
      set.delete(c);
      if (set.size === 0) this.clients.delete(draftId);
    };
    res.on('close', remove);
    return {
      remove,
      release: (sent: number): void => {
        const held = c.held ?? [];
        c.held = null;
        c.lastVersion = sent;
        for (const h of held) {
          if (h.version !== null && h.version <= c.lastVersion) continue;
          res.write(h.frame);
          if (h.version !== null) c.lastVersion = h.version;
        }
      },
    };
  }

  /** Sends one committed version's events to every client of the draft. */
  publish(draftId: string, version: number | null, events: AgUiEvent[]): void {
    const set = this.clients.get(draftId);
    if (!set) return;
    const plain = formatEvents(version, events);
    let oneRun: string | null = null; // made once, for the first client that reads the stream as one run
    for (const c of set) {
      const frame = c.asRun ? (oneRun ??= formatEvents(version, asOneRun(events))) : plain;
      if (c.held) {
        c.held.push({ version, frame });
        c.heldBytes += frame.length;
        // Held frames count against the same bound: a client that cannot keep up resumes later.
        if (c.heldBytes + c.res.writableLength > SseHub.MAX_BUFFER) c.res.destroy();
        continue;
      }
      if (version !== null && version <= c.lastVersion) continue;
      if (c.res.writableLength > SseHub.MAX_BUFFER) {
        c.res.destroy();
        continue;
      }
      c.res.write(frame);
      if (version !== null) c.lastVersion = version;
    }
  }

  /** Ends one draft's streams (its clients reconnect with Last-Event-ID). */
  closeDraft(draftId: string): void {
    const set = this.clients.get(draftId);
    if (!set) return;
    this.clients.delete(draftId);
    for (const c of set) c.res.end();
  }

  closeAll(): void {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
    for (const set of this.clients.values()) for (const c of set) c.res.end();
    this.clients.clear();
  }

  private startRecheck(): void {
    if (this.recheck) return;
    this.recheck = setInterval(() => void this.revalidate(), 1000);
    this.recheck.unref();
  }

  /** Ends every stream of a deleted draft, or whose principal is no longer valid, with an error event first. */
  private async revalidate(): Promise<void> {
    const existing = this.existing && this.clients.size > 0 ? await this.existing([...this.clients.keys()]) : null;
    if (existing) {
      for (const [draftId, set] of [...this.clients]) {
        if (existing.has(draftId)) continue;
        this.clients.delete(draftId);
        for (const c of set) endWithError(c.res, 'NOT_FOUND', `The draft "${draftId}" was deleted.`);
      }
    }
    for (const set of [...this.clients.values()]) {
      for (const c of [...set]) {
        if (!c.stillValid || (await c.stillValid())) continue;
        endWithError(c.res, 'UNAUTHORIZED', 'The token was revoked or has expired; reconnect with a valid token.');
      }
    }
  }
}

/** Ends a stream with a RUN_ERROR saying why, so its client does not reconnect as after a drop. */
function endWithError(res: ServerResponse, code: string, message: string): void {
  res.end(formatEvents(null, [{ type: 'RUN_ERROR', code, message }]));
}

/**
 * One version's events as SSE. `id:` (the version) starts at the event that carries the state
 * (STATE_DELTA or STATE_SNAPSHOT): a client cut off after an earlier event of the version (the
 * turn's RUN_STARTED) still holds the previous id, so it resumes with this version's delta instead
 * of skipping it; one cut off after the delta never gets the delta twice.
 */
export function formatEvents(version: number | null, events: AgUiEvent[]): string {
  let out = '';
  const state = events.findIndex((ev) => ev.type === 'STATE_DELTA' || ev.type === 'STATE_SNAPSHOT');
  events.forEach((ev, i) => {
    if (version !== null && i >= state) out += `id: ${version}\n`;
    out += `event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`;
  });
  return out;
}
