// The logging variables every service reads (docs/config.md lists them once).
import { oneOf, optional, parseEnv } from './env.ts';
import { createLogger, LOG_LEVELS } from './log.ts';
import type { Logger } from './log.ts';

export const logEnv = {
  WEFT_LOG_LEVEL: oneOf('Lowest level written to stdout (one JSON object per line)', LOG_LEVELS, 'info'),
  WEFT_NODE_ID: optional('This process among its service\'s replicas, on every log line; unset = the host name (a container\'s id)'),
} as const;

export function loggerFromEnv(service: string, env: Readonly<Record<string, string | undefined>>): Logger {
  const e = parseEnv(logEnv, env);
  return createLogger({ service, level: e.WEFT_LOG_LEVEL, ...(e.WEFT_NODE_ID ? { node: e.WEFT_NODE_ID } : {}) });
}
