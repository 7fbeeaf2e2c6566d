import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubContributions } from '../bin/commands/hub-contributions';

const AGENTS = path.resolve(import.meta.dirname, '..', 'lib', 'runtime', 'agents');
/** The parts every agent's folder has (R18.2, R18.29, CONTRIBUTING.md "Where things go"). */
const PARTS = ['install.ts', 'to-interaction.ts', 'to-answer.ts', 'terminal-answer.ts', 'hub-contribution.ts'];

function agentFolders(): string[] {
  return fs
    .readdirSync(AGENTS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

describe('[R18.2] one adapter shape', () => {
  it('[R18.2][R18.29] every agent folder has the same five parts', () => {
    const folders = agentFolders();
    expect(folders).toContain('claude-code');
    const missing = folders.flatMap((folder) =>
      PARTS.filter((part) => !fs.existsSync(path.join(AGENTS, folder, part))).map((part) => `${folder}/${part}`),
    );
    expect(missing).toEqual([]);
  });

  it("[R18.29] the CLI composes every agent folder's hub contribution, once", () => {
    const agents = hubContributions({ codexHomes: [] }).map((contribution) => contribution.agent);
    expect(agents.toSorted()).toEqual(agentFolders().toSorted());
  });
});
