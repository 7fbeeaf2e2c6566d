import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGLISH_EVERY_ROUTE } from './i18n';
import { enCard } from './i18n-en-card';
import { enInbox } from './i18n-en-inbox';
import { enPair } from './i18n-en-pair';
import { enOutcomes } from './i18n-en-outcomes';
import { enPrompts } from './i18n-en-prompts';
import { enScreens } from './i18n-en-screens';
import { enSessions } from './i18n-en-sessions';
import { enSettings } from './i18n-en-settings';
import { enTeam } from './i18n-en-team';
import { enTurnCard } from './i18n-en-turn-card';
import { enTurns } from './i18n-en-turns';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TABLES = [
  { module: 'i18n-en-inbox', keys: Object.keys(enInbox) },
  { module: 'i18n-en-prompts', keys: Object.keys(enPrompts) },
  { module: 'i18n-en-outcomes', keys: Object.keys(enOutcomes) },
  { module: 'i18n-en-card', keys: Object.keys(enCard) },
  { module: 'i18n-en-pair', keys: Object.keys(enPair) },
  { module: 'i18n-en-screens', keys: Object.keys(enScreens) },
  { module: 'i18n-en-sessions', keys: Object.keys(enSessions) },
  { module: 'i18n-en-settings', keys: Object.keys(enSettings) },
  { module: 'i18n-en-team', keys: Object.keys(enTeam) },
  { module: 'i18n-en-turns', keys: Object.keys(enTurns) },
  { module: 'i18n-en-turn-card', keys: Object.keys(enTurnCard) },
];

/** The PWA's source files that may show a string (not tests, not the tables themselves). */
function sourceFiles(): string[] {
  return ['app', 'components', 'hooks', path.join('lib', 'client')].flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !/(^|\/)i18n[^/]*\.ts$/.test(file))
      .map((file) => path.join(dir, file)),
  );
}

describe('UI strings: each route carries its own English (R13.4)', () => {
  it('[R9.12][R13.4] a file that shows an inbox, card or screen string imports that table', () => {
    const missing: string[] = [];
    for (const file of sourceFiles()) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const table of TABLES) {
        const used = table.keys.filter((key) => text.includes(`'${key}'`));
        if (used.length > 0 && !text.includes(`/${table.module}'`))
          missing.push(`${file} uses ${used.join(', ')} without importing ${table.module}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('[R9.12] no key is in two English tables', () => {
    const keys = [...Object.keys(ENGLISH_EVERY_ROUTE), ...TABLES.flatMap((table) => table.keys)];
    expect(keys.length).toBeGreaterThan(200);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
