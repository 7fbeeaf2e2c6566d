#!/usr/bin/env node
// Installs the pinned gemini (scripts/gemini/pinned.json) into .cache/gemini: scripts/agents/install.mjs says how.
//   node scripts/gemini/install.mjs [version]
import { main } from '../agents/install.mjs';

main('gemini', process.argv[2]);
