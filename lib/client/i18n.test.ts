import { describe, expect, it } from 'vitest';
import { MESSAGES, translator, type MessageKey } from './i18n';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('UI strings', () => {
  it('[R9.12] English and Chinese have the same keys, none empty', () => {
    expect(Object.keys(MESSAGES.zh).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const table of [MESSAGES.en, MESSAGES.zh]) {
      for (const [key, text] of Object.entries(table)) expect(text.trim(), key).not.toBe('');
    }
  });

  it('[R9.12] both languages fill the same placeholders', () => {
    for (const key of Object.keys(MESSAGES.en) as MessageKey[]) {
      expect(placeholders(MESSAGES.zh[key]), key).toEqual(placeholders(MESSAGES.en[key]));
    }
  });

  it('[R9.12] keys say where a string is shown and what it is', () => {
    for (const key of Object.keys(MESSAGES.en)) expect(key).toMatch(/^[a-z]+\.[a-z][a-zA-Z]*$/);
  });

  it('[R9.12] fills placeholders and leaves unknown ones visible', () => {
    const t = translator('en');
    expect(t('inbox.waiting', { n: 3 })).toBe('3 waiting');
    expect(t('outcome.partly', { n: 1 })).toBe('Partly answered (1 of {m})');
    expect(translator('zh')('inbox.waiting', { n: 3 })).toBe('3 个待回答');
    expect(translator('en')).toBe(t);
  });
});
