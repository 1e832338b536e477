// The scripted builder: plays a script step by step through any BuildTransport, with pauses
// and (when the door has them) presence and a ghost of the step being written.
import { randomUUID } from 'node:crypto';
import type { ScriptStep } from './landing-script.ts';
import type { BuildTransport, SubmitResult } from './transport.ts';

export interface ScriptedEvent { index: number; step: ScriptStep; result: SubmitResult }
export interface ScriptedOptions {
  pauseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onStep?: (e: ScriptedEvent) => void;
  name?: string;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the script as one turn; returns each step's result. */
export async function runScript(t: BuildTransport, script: readonly ScriptStep[], o: ScriptedOptions = {}): Promise<ScriptedEvent[]> {
  const sleep = o.sleep ?? defaultSleep;
  const turnId = `script-${randomUUID().slice(0, 8)}`;
  const out: ScriptedEvent[] = [];
  t.presence?.({ name: o.name ?? 'Scripted builder', color: '#7c3aed' });
  try {
    for (const [index, step] of script.entries()) {
      const first = step.ops[0] as { path?: string } | undefined;
      const sid = /^\/sections\/([^/]+)/.exec(first?.path ?? '')?.[1];
      t.presence?.({ name: o.name ?? 'Scripted builder', selection: sid ? { sectionId: sid } : null });
      t.ghost?.(step.ops[0] ?? null);
      await sleep(o.pauseMs ?? 0);
      const result = await t.submit(step.ops, { turnId, opId: `${turnId}-${index}` });
      t.ghost?.(null);
      const e = { index, step, result };
      out.push(e);
      o.onStep?.(e);
    }
  } finally {
    await t.finishTurn?.(turnId).catch(() => undefined);
  }
  return out;
}
