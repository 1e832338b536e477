// The model endpoint, from the environment once (main reads process.env and passes it here).
// `modelEnv` declares the variables (docs/config.md is generated from it).
import { bool, optional, optionalUrl, parseEnv } from '@weft/ops';

export interface ModelConfig {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.example.com/v1 (we POST /chat/completions). */
  readonly url: string;
  readonly model: string;
  readonly key: string | null;
  /** Ask for a streamed answer (SSE); endpoints that ignore it answer with JSON, which works too. */
  readonly stream: boolean;
}

export const modelEnv = {
  WEFT_MODEL_URL: optionalUrl('Base URL of an OpenAI-compatible API (…/v1); with WEFT_MODEL it turns on the agent of the Build chat (POST /agent/briefs)', ['http', 'https']),
  WEFT_MODEL: optional('Model name sent as "model"'),
  WEFT_MODEL_KEY: optional('Bearer key for the endpoint', { secret: true }),
  WEFT_MODEL_STREAM: bool('Ask for a streamed answer; 0 = one whole answer', true),
} as const;

/**
 * Not configured (no URL or no model) is a value, not an error: the agent door is then off.
 * A malformed value throws ConfigError (one line naming the variable).
 */
export function parseModelConfig(env: Readonly<Record<string, string | undefined>>): { ok: true; value: ModelConfig } | { ok: false; error: string } {
  const e = parseEnv(modelEnv, env);
  const url = e.WEFT_MODEL_URL?.trim();
  const model = e.WEFT_MODEL?.trim();
  if (!url) return { ok: false, error: `WEFT_MODEL_URL: ${modelEnv.WEFT_MODEL_URL.doc}` };
  if (!model) return { ok: false, error: `WEFT_MODEL: ${modelEnv.WEFT_MODEL.doc}` };
  const key = e.WEFT_MODEL_KEY?.trim() || null;
  return { ok: true, value: Object.freeze({ url: url.replace(/\/$/, ''), model, key, stream: e.WEFT_MODEL_STREAM }) };
}
