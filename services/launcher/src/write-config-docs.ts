// `npm run docs:config`: writes docs/config.md from the config schemas.
import { writeFileSync } from 'node:fs';
import { configDocs } from './config.ts';

writeFileSync(new URL('../../../docs/config.md', import.meta.url), configDocs());
console.log('wrote docs/config.md');
