import type { ErrorCode } from '@weft/core';

// WebSocket close codes mirror HTTP (CONVENTIONS.md §6); the close `reason` is the ErrorCode.
// A refused op is a reply, never a close: only hostile or unreadable input closes a socket.
export const CloseCode = {
  BAD_REQUEST: 4400,
  UNAUTHORIZED: 4401,
  FORBIDDEN: 4403,
  NOT_FOUND: 4404,
  TIMEOUT: 4408,
  CONFLICT: 4409,
  RATE_LIMITED: 4429,
  INTERNAL: 4500,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

const byError: Partial<Record<ErrorCode, CloseCode>> = {
  BAD_REQUEST: CloseCode.BAD_REQUEST,
  MALFORMED_JSON: CloseCode.BAD_REQUEST,
  FORGED_UPDATE: CloseCode.BAD_REQUEST,
  PAYLOAD_TOO_LARGE: CloseCode.BAD_REQUEST,
  UNAUTHORIZED: CloseCode.UNAUTHORIZED,
  FORBIDDEN: CloseCode.FORBIDDEN,
  NOT_FOUND: CloseCode.NOT_FOUND,
  DOC_EPOCH_CHANGED: CloseCode.CONFLICT,
  RATE_LIMITED: CloseCode.RATE_LIMITED,
  INTERNAL: CloseCode.INTERNAL,
  UNAVAILABLE: CloseCode.INTERNAL,
};

export function closeCodeFor(code: ErrorCode): CloseCode {
  return byError[code] ?? CloseCode.BAD_REQUEST;
}
