#!/usr/bin/env node
// Installs the pinned opencode (scripts/opencode/pinned.json) into .cache/opencode: scripts/agents/install.mjs says how.
//   node scripts/opencode/install.mjs [version]
import { main } from '../agents/install.mjs';

main('opencode', process.argv[2]);
