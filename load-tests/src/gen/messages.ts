// Parent ⇄ load-generator messages (IPC). Times are epoch ms from performance.timeOrigin + now().

export interface RoomGen {
  role: 'room';
  url: string;
  token: string;
  drafts: string[];
  section: string;
  /** Components writer k writes to: components[(writerOffset + k) % length]. */
  components: string[];
  /** Components the viewers read after each update (default: all of them). */
  watch?: string[];
  viewers: number;
  writers: number;
  writerOffset: number;
  /** Ops/s per writer; 0 = closed loop (next op after the ack). */
  rate: number;
  durationMs: number;
  /**
   * Untimed warm-up at the same rate before the measured `durationMs` (default 0): the first
   * seconds of a fresh process run its code unoptimised; their acks are kept apart (`warmAckMs`).
   */
  warmupMs?: number;
  /** submit: WeftPeer.submit (acked); yjs: edits through the Y.Doc (a relay baseline, or Weft's Yjs door). */
  mode: 'submit' | 'yjs';
}

export interface AgentGen {
  role: 'agents';
  url: string;
  token: string;
  drafts: string[];
  section: string;
  turns: number;
  opsPerTurn: number;
  opsPerRequest: number;
  agentsPerDraft: number;
}

export type GenConfig = RoomGen | AgentGen;

export interface GenResult {
  /** Per op key, the latest arrival among this process's viewers (ms after submit). */
  maxByKey: Record<string, number>;
  /** Every delivery's latency (sampled to at most 100k). */
  deliveries: number[];
  ackMs: number[];
  /** Epoch ms at which each op of `ackMs` was sent (same order): when in the run the slow acks were. */
  ackSentAt: number[];
  /** Acks of ops sent during the warm-up (RoomGen.warmupMs), not in `ackMs`. */
  warmAckMs: number[];
  acked: number;
  errors: Record<string, number>;
  joinMs: number[];
  joinFailures: number;
  /** Epoch ms of the first and last ack (for sustained rates). */
  firstAck: number;
  lastAck: number;
  /**
   * This process's own event-loop delay over the measured run (ms): an ack or a delivery waits
   * for it too, so a busy generator shows up in the latencies it measures.
   */
  loopLag?: { p50: number; p99: number; max: number };
  /** This process's CPU (user + system, ms) over the measured run. */
  cpuMs?: number;
}

export type ToParent = { type: 'ready'; joined: number } | { type: 'progress'; acked: number; delivered: number } | { type: 'result'; result: GenResult } | { type: 'error'; message: string };
export type ToChild = { type: 'config'; config: GenConfig } | { type: 'go' } | { type: 'stop' };

export const now = (): number => performance.timeOrigin + performance.now();

/** Text value carrying its writer key and send time: `<key>@<epoch ms>`. */
export const stamp = (key: string): string => `${key}@${now().toFixed(3)}`;
export function unstamp(v: unknown): { key: string; at: number } | null {
  if (typeof v !== 'string') return null;
  const i = v.lastIndexOf('@');
  if (i < 0) return null;
  const at = Number(v.slice(i + 1));
  return Number.isFinite(at) ? { key: v.slice(0, i), at } : null;
}
