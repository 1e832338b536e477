import { ErrorCode, ruleKind } from '@weft/core';
import type { ErrorPayload } from '@weft/core';

/**
 * The one domain error of the session's use-case layer: an `ErrorPayload` (core's registry code,
 * a message a person or model can act on, and fields such as `path`). Doors map it: HTTP to the
 * code's status, the Yjs door to a stateless reply or a close code (`@weft/protocol`), MCP to an
 * error result. Expected failures inside the room are values (`RoomError`); this is how they leave.
 */
export class WeftError extends Error {
  readonly code: ErrorCode;
  readonly extra: Record<string, unknown>;
  constructor(code: ErrorCode, message?: string, extra: Record<string, unknown> = {}) {
    super(message ?? ErrorCode[code].message);
    this.code = code;
    // A refusal says its kind wherever it leaves (HTTP, MCP, Yjs): derived from its rule.
    const kind = code === 'VALIDATION_FAILED' && extra['kind'] === undefined ? ruleKind(extra['rule']) : undefined;
    this.extra = kind ? { ...extra, kind } : extra;
  }

  static from(p: ErrorPayload): WeftError {
    const { code, message, ...extra } = p;
    return new WeftError(code, message, extra);
  }

  toPayload(): ErrorPayload {
    return { code: this.code, message: this.message, ...this.extra };
  }
}
