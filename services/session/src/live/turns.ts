import { runFinished, runStarted } from '@weft/protocol';
import type { AgUiEvent } from '@weft/protocol';

interface OpenTurn { draftId: string; actor: string; actorKind: string; startedAt: number; steps: number; ops: number; repairs: number; refused: number; lastVersion: number }

/**
 * Agent turns: RUN_STARTED before the first step of a turn, RUN_FINISHED when it is finished
 * (explicitly, or when its session closes). Counts feed the per-turn audit.
 */
export class Turns {
  private readonly open = new Map<string, OpenTurn>();

  /** Events to emit before a step of `turnId` (RUN_STARTED the first time the turn is seen). */
  begin(draftId: string, turnId: string, actor: string, version: number, now: number, actorKind = 'agent'): AgUiEvent[] {
    const key = `${draftId}/${turnId}`;
    if (this.open.has(key)) return [];
    this.open.set(key, { draftId, actor, actorKind, startedAt: now, steps: 0, ops: 0, repairs: 0, refused: 0, lastVersion: version });
    return [runStarted(draftId, turnId, { version, actor, turnId }, now)];
  }

  record(draftId: string, turnId: string, version: number, ops: number, repairs: number, refused: number): void {
    const t = this.open.get(`${draftId}/${turnId}`);
    if (!t) return;
    t.steps++;
    t.ops += ops;
    t.repairs += repairs;
    t.refused += refused;
    t.lastVersion = version;
  }

  /** Ops of the turn refused without a version (a step refused whole, ops held until the turn's end). */
  refusedWithout(draftId: string, turnId: string, refused: number): void {
    const t = this.open.get(`${draftId}/${turnId}`);
    if (t) t.refused += refused;
  }

  finish(draftId: string, turnId: string, now: number): { events: AgUiEvent[]; summary: Record<string, number>; actor: string; actorKind: string } | null {
    const key = `${draftId}/${turnId}`;
    const t = this.open.get(key);
    if (!t) return null;
    this.open.delete(key);
    const summary = { steps: t.steps, ops: t.ops, repairs: t.repairs, refused: t.refused, durationMs: now - t.startedAt, lastVersion: t.lastVersion };
    return { events: [runFinished(draftId, turnId, summary, { version: t.lastVersion, actor: t.actor, turnId }, now)], summary, actor: t.actor, actorKind: t.actorKind };
  }
}
