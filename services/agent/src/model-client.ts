// A minimal OpenAI-compatible /chat/completions client: yields the answer text as it arrives
// (SSE `data:` deltas when the endpoint streams, else the whole message at once).
import type { ModelConfig } from './model-config.ts';

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }
/** The endpoint's own token count for one answer (OpenAI `usage`). */
export interface Usage { promptTokens: number; completionTokens: number }
export type Complete = (messages: readonly ChatMessage[]) => AsyncIterable<string>;

export class ModelError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

type WithUsage = { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null };
/** `usage` of an answer or a stream chunk, when the endpoint sent one. */
function readUsage(j: WithUsage): Usage | null {
  const u = j.usage;
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return null;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
}

/** `onUsage` (the build eval) also asks a streaming endpoint for its usage chunk
 *  (`stream_options.include_usage`); without it the request is unchanged. */
export function chatCompletions(cfg: ModelConfig, opts: { signal?: AbortSignal; temperature?: number; onUsage?: (u: Usage) => void } = {}): Complete {
  return async function* complete(messages) {
    const res = await fetch(`${cfg.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cfg.key ? { authorization: `Bearer ${cfg.key}` } : {}) },
      body: JSON.stringify({
        model: cfg.model, messages, stream: cfg.stream, temperature: opts.temperature ?? 0.2,
        ...(opts.onUsage && cfg.stream ? { stream_options: { include_usage: true } } : {}),
      }),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!res.ok || !res.body) throw new ModelError(res.status, `model endpoint answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const j = (await res.json()) as { choices?: { message?: { content?: string | null } }[] } & WithUsage;
      const u = readUsage(j);
      if (u) opts.onUsage?.(u);
      yield j.choices?.[0]?.message?.content ?? '';
      return;
    }
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        try {
          const j = JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[] } & WithUsage;
          const u = readUsage(j);
          if (u) opts.onUsage?.(u);
          const piece = j.choices?.[0]?.delta?.content;
          if (piece) yield piece;
        } catch {
          // a keep-alive or vendor line: not part of the answer
        }
      }
    }
  };
}
