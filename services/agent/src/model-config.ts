// The model endpoint, from the environment once (main reads process.env and passes it here).

export interface ModelConfig {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.example.com/v1 (we POST /chat/completions). */
  readonly url: string;
  readonly model: string;
  readonly key: string | null;
  /** Ask for a streamed answer (SSE); endpoints that ignore it answer with JSON, which works too. */
  readonly stream: boolean;
}

export const MODEL_OPTIONS = {
  WEFT_MODEL_URL: 'Base URL of an OpenAI-compatible API (…/v1); required.',
  WEFT_MODEL: 'Model name sent as "model"; required.',
  WEFT_MODEL_KEY: 'Bearer key for the endpoint; optional.',
  WEFT_MODEL_STREAM: '"0" to ask for a whole answer instead of a stream; default "1".',
} as const;

export function parseModelConfig(env: Readonly<Record<string, string | undefined>>): { ok: true; value: ModelConfig } | { ok: false; error: string } {
  const url = env['WEFT_MODEL_URL']?.trim();
  const model = env['WEFT_MODEL']?.trim();
  if (!url || !/^https?:\/\//.test(url)) return { ok: false, error: `WEFT_MODEL_URL: ${MODEL_OPTIONS.WEFT_MODEL_URL}` };
  if (!model) return { ok: false, error: `WEFT_MODEL: ${MODEL_OPTIONS.WEFT_MODEL}` };
  const key = env['WEFT_MODEL_KEY']?.trim() || null;
  return { ok: true, value: Object.freeze({ url: url.replace(/\/$/, ''), model, key, stream: env['WEFT_MODEL_STREAM'] !== '0' }) };
}
