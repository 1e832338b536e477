// PROTOCOL_VERSION history:
//   1 — 2026-11: HTTP v1 routes, AG-UI 1.0 events over SSE/NATS, Hocuspocus stateless messages.
export const PROTOCOL_VERSION = 1;
export const AG_UI_VERSION = '1.0';
