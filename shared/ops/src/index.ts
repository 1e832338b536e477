// Public surface of @weft/ops (CONVENTIONS.md §14): what every service's shell shares —
// config from the environment, structured logs, metrics and health probes.
export type { EnvVar, EnvSpec, EnvValues, EnvSection } from './env.ts';
export { ConfigError, int, str, optional, url, optionalUrl, oneOf, list, bool, origins, parseEnv, exitOnStartupError, renderEnvDocs } from './env.ts';
export type { Logger, LogLevel, LoggerOptions } from './log.ts';
export { createLogger, routeConsole, silentLogger, LOG_LEVELS, REDACT_PATHS } from './log.ts';
export { logEnv, loggerFromEnv } from './log-env.ts';
export type { AccessLog } from './access-log.ts';
export { accessLog, logUpgrade, requestIdOf } from './access-log.ts';
export { createRegistry, Counter, Gauge, Histogram, Registry, LATENCY_BUCKETS } from './metrics.ts';
export type { Probes, ReadinessChecks } from './probes.ts';
export { checkWithin, operatorServer, probes, stopOnSignals } from './probes.ts';
export type { EgressPolicy } from './egress.ts';
export { postgresEnv } from './postgres-env.ts';
export { EgressRefused, checkEgressUrl, egressEnv, guardedLookup, nonPublicRange, parseEgressUrl } from './egress.ts';
