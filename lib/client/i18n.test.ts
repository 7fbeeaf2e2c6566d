import { describe, expect, it } from 'vitest';
import { ENGLISH_EVERY_ROUTE, hasLanguage, loadLanguage, translator, type MessageKey, type Messages } from './i18n';
import { enApproval } from './i18n-en-approval';
import { enCard } from './i18n-en-card';
import { enForm } from './i18n-en-form';
import { enInbox } from './i18n-en-inbox';
import { enMorePending } from './i18n-en-more-pending';
import { enPair } from './i18n-en-pair';
import { enOutcomes } from './i18n-en-outcomes';
import { enPrompts } from './i18n-en-prompts';
import { enScreens } from './i18n-en-screens';
import { enSessions } from './i18n-en-sessions';
import { enSettings } from './i18n-en-settings';
import { enTeam } from './i18n-en-team';
import { enTurnCard } from './i18n-en-turn-card';
import { enTurns } from './i18n-en-turns';
import { zh } from './i18n-zh';

const ENGLISH: Messages = {
  ...ENGLISH_EVERY_ROUTE,
  ...enInbox,
  ...enMorePending,
  ...enPrompts,
  ...enOutcomes,
  ...enCard,
  ...enApproval,
  ...enForm,
  ...enPair,
  ...enScreens,
  ...enSessions,
  ...enSettings,
  ...enTeam,
  ...enTurns,
  ...enTurnCard,
};

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('UI strings', () => {
  it('[R9.12] English and Chinese have the same keys, none empty', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(ENGLISH).sort());
    for (const table of [ENGLISH, zh]) {
      for (const [key, text] of Object.entries(table)) expect(text.trim(), key).not.toBe('');
    }
  });

  it('[R9.12] both languages fill the same placeholders', () => {
    for (const key of Object.keys(ENGLISH) as MessageKey[]) {
      expect(placeholders(zh[key]), key).toEqual(placeholders(ENGLISH[key]));
    }
  });

  it('[R9.12] keys say where a string is shown and what it is', () => {
    for (const key of Object.keys(ENGLISH)) expect(key).toMatch(/^[a-z]+\.[a-z][a-zA-Z]*$/);
  });

  it('[R9.12][R13.4] Chinese loads on first use; until then its translator speaks English', async () => {
    expect(hasLanguage('zh')).toBe(false);
    expect(translator('zh')).toBe(translator('en'));
    await loadLanguage('zh');
    expect(hasLanguage('zh')).toBe(true);
    expect(translator('zh')('inbox.waiting', { n: 3 })).toBe('3 个待回答');
    expect(translator('zh')).toBe(translator('zh'));
  });

  it('[R9.12] fills placeholders and leaves unknown ones visible', () => {
    const t = translator('en');
    expect(t('inbox.waiting', { n: 3 })).toBe('3 waiting');
    expect(t('outcome.partly', { n: 1 })).toBe('Partly answered (1 of {m})');
    expect(translator('en')).toBe(t);
  });
});
