#!/usr/bin/env node
// Installs the pinned claude-code (scripts/claude-code/pinned.json) into .cache/claude-code: scripts/agents/install.mjs says how.
//   node scripts/claude-code/install.mjs [version]
import { main } from '../agents/install.mjs';

main('claude-code', process.argv[2]);
