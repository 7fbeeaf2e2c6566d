import { describe, expect, it } from 'vitest';
import { APPROVAL_DIFF_MAX } from '../../../contracts';
import { EDIT_DIFF, permissionAsked, questionAsked, SESSION, topSession } from './fixtures';
import { keptPermission, keptQuestion } from './kept-request';
import { permissionInteraction, questionInteraction } from './to-interaction';

const where = { directory: '/home/ada/shop', chain: [topSession], version: '1.18.33' };
const size = (value: unknown) => JSON.stringify(value).length;

describe('what the OpenCode bridge keeps of a request while it becomes a card (R12.19)', () => {
  it.each([
    ['a command', permissionAsked()],
    [
      'a file change',
      permissionAsked({ permission: 'edit', metadata: { filepath: '/home/ada/shop/notes.txt', diff: EDIT_DIFF } }),
    ],
    [
      'another tool',
      permissionAsked({ permission: 'webfetch', metadata: { url: 'https://example.com', format: 'md' } }),
    ],
  ])('[R12.19] %s makes the same card from what is kept', (_, request) => {
    expect(permissionInteraction(keptPermission(request), where)).toEqual(permissionInteraction(request, where));
  });

  it('[R12.19] a question makes the same card from what is kept', () => {
    const request = questionAsked();
    expect(questionInteraction(keptQuestion(request), where)).toEqual(questionInteraction(request, where));
  });

  it('[R12.19] megabytes beside what a card shows are not kept; a 15 MiB diff is kept as far as the card shows it', () => {
    const huge = 'x'.repeat(15 * 2 ** 20);
    const edit = permissionAsked({
      permission: 'edit',
      metadata: { filedata: huge, filepath: '/home/ada/shop/big.txt', diff: `@@ -1 +1 @@\n${huge}` },
      extra: huge,
    });
    const kept = keptPermission(edit);
    expect(size(kept)).toBeLessThan(APPROVAL_DIFF_MAX + 10_000);
    expect(permissionInteraction(kept, where)).toEqual(permissionInteraction(edit, where));
    const tool = permissionAsked({ permission: 'task', metadata: { output: huge, more: [huge, huge] } });
    expect(size(keptPermission(tool))).toBeLessThan(30_000);
    expect(permissionInteraction(keptPermission(tool), where)).toEqual(permissionInteraction(tool, where));
    const question = questionAsked({
      questions: Array.from({ length: 50 }, () => ({
        question: huge,
        header: 'H',
        options: Array.from({ length: 200 }, () => ({ label: huge, description: huge })),
      })),
    });
    expect(size(keptQuestion(question))).toBeLessThan(2 * 2 ** 20);
    expect(keptQuestion(question).sessionID).toBe(SESSION);
  });
});
