import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const AGENTS = path.resolve(import.meta.dirname, '..', 'lib', 'runtime', 'agents');
/** The parts every agent's folder has (R18.2, CONTRIBUTING.md "Adding an agent"). */
const PARTS = ['install.ts', 'to-interaction.ts', 'to-answer.ts', 'terminal-answer.ts'];

describe('[R18.2] one adapter shape', () => {
  it('[R18.2] every agent folder has the same four parts', () => {
    const folders = fs
      .readdirSync(AGENTS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders).toContain('claude-code');
    const missing = folders.flatMap((folder) =>
      PARTS.filter((part) => !fs.existsSync(path.join(AGENTS, folder, part))).map((part) => `${folder}/${part}`),
    );
    expect(missing).toEqual([]);
  });
});
