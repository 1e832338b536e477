// The launcher's own variable, and every service's, gathered for docs/config.md.
import { logEnv, list, renderEnvDocs } from '@weft/ops';
import type { EnvSection } from '@weft/ops';
import { modelEnv } from '@weft/agent';
import { checkpointerEnv, standaloneEnv as checkpointerStandaloneEnv } from '@weft/checkpointer';
import { previewEnv, standaloneEnv as previewStandaloneEnv } from '@weft/preview';
import { sessionEnv } from '@weft/session';
import { standaloneEnv as webhooksStandaloneEnv, webhooksEnv } from '@weft/webhooks';

export const SERVICES = ['session', 'preview', 'checkpointer', 'webhooks'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const launcherEnv = {
  WEFT_SERVICES: list('Which services this process runs; fewer than all needs DATABASE_URL (the embedded PGlite lives inside one process), and NATS_URL to reach the others', SERVICES, SERVICES),
} as const;

/** Every variable a Weft process reads, by the part that reads it (docs/config.md). */
export const CONFIG_SECTIONS: readonly EnvSection[] = [
  { title: 'Launcher (`npm start`, the image\'s `node dist/launcher.js`)', intro: 'One process runs the services WEFT_SERVICES names; each reads its own variables below.', spec: launcherEnv },
  { title: 'Logging (every service)', intro: 'One JSON object per line on stdout: `time`, `level`, `service`, `node`, `msg`, and `reqId` inside a request.', spec: logEnv },
  { title: 'Session', intro: 'The API, SSE, MCP and Yjs doors; owns the drafts\' rooms. The launcher reads these for every process (PORT, HOST, DATABASE_URL, NATS_URL and the admin token serve all its services).', spec: sessionEnv },
  { title: 'Preview', intro: 'Live pages and the Build view.', spec: previewEnv },
  { title: 'Preview, standalone (`services/preview/src/main.ts`)', intro: 'Only the standalone preview process reads these; under the launcher the session\'s PORT, HOST, DATABASE_URL and NATS_URL apply.', spec: previewStandaloneEnv },
  { title: 'Checkpointer', intro: 'Snapshots behind the log.', spec: checkpointerEnv },
  { title: 'Checkpointer, standalone (`services/checkpointer/src/main.ts`)', intro: 'Only the standalone checkpointer process reads these.', spec: checkpointerStandaloneEnv },
  { title: 'Webhooks', intro: 'The dispatcher that sends signed deliveries (docs/api.md "Webhooks"). The session reads WEFT_WEBHOOK_ALLOW_PRIVATE too: it checks endpoint URLs when they are registered.', spec: webhooksEnv },
  { title: 'Webhooks, standalone (`services/webhooks/src/main.ts`)', intro: 'Only the standalone dispatcher process reads these.', spec: webhooksStandaloneEnv },
  { title: 'Agent model (the Build chat)', intro: 'An OpenAI-compatible endpoint; unset = the Build chat and the agent door say that no model is configured and which variables to set.', spec: modelEnv },
];

export function configDocs(): string {
  return renderEnvDocs(CONFIG_SECTIONS, `# Configuration

Every variable Weft reads, generated from the schemas in the code (\`services/*/src/config.ts\`,
\`shared/ops/src/log-env.ts\`, \`services/agent/src/model-config.ts\`) by \`npm run docs:config\`;
\`services/launcher/test/config-docs.test.ts\` fails when this file is out of date.

Each service parses its variables once at start (\`main.ts\`), freezes the result, and refuses a
bad value with one line naming it, for example:

    weft: bad configuration: WEFT_MAX_BATCH: must be an integer ≥ 1, got "lots"

An empty value counts as unset. Values marked secret, and URLs (they may hold passwords), are
never echoed.`);
}
