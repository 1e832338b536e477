// The op log of a simulation: every action in order, printed with the seed when a run fails so
// the failure can be read and replayed (WEFT_SEED=<seed>).

export interface SimLog {
  readonly seed: number;
  readonly lines: string[];
  add(line: string): void;
  /** The seed, how to replay it, and the last `tail` lines. */
  dump(tail?: number): string;
}

export function simLog(seed: number, name = 'sim'): SimLog {
  const lines: string[] = [];
  const t0 = Date.now();
  return {
    seed,
    lines,
    add(line) {
      lines.push(`${String(Date.now() - t0).padStart(6)}ms ${line}`);
    },
    dump(tail = 400) {
      const shown = lines.slice(-tail);
      const head = `${name} failed: seed ${seed} (replay: WEFT_SEED=${seed}); ${lines.length} log lines${lines.length > shown.length ? `, last ${shown.length}` : ''}:`;
      return [head, ...shown].join('\n');
    },
  };
}

/** Runs `f`; on failure rethrows with the log attached, so the seed and the ops are printed. */
export async function withSimLog<T>(log: SimLog, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const out = new Error(`${msg}\n\n${log.dump()}`);
    if (e instanceof Error && e.stack) out.stack = `${out.message}\n${e.stack}`;
    throw out;
  }
}
