#!/usr/bin/env node
// Installs the pinned codex (scripts/codex/pinned.json) into .cache/codex: scripts/agents/install.mjs says how.
//   node scripts/codex/install.mjs [version]
import { main } from '../agents/install.mjs';

main('codex', process.argv[2]);
