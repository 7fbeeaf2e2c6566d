#!/usr/bin/env node
// Installs the pinned copilot (scripts/copilot/pinned.json) into .cache/copilot: scripts/agents/install.mjs says how.
//   node scripts/copilot/install.mjs [version]
import { main } from '../agents/install.mjs';

main('copilot', process.argv[2]);
