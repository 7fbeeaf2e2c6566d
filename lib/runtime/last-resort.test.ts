import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installLastResort, lastResortLine } from './last-resort';

describe('[R12.18] the last resort', () => {
  it('[R12.18] says what went wrong in one clipped line, whatever the reason is', () => {
    expect(lastResortLine('unhandled rejection', new RangeError('Maximum call stack size exceeded'))).toBe(
      'askaway: kept serving after an unhandled rejection: RangeError: Maximum call stack size exceeded',
    );
    expect(lastResortLine('uncaught exception', `two\nlines ${'x'.repeat(1_000)}`)).toMatch(/^[^\n]{1,360}…$/);
    expect(lastResortLine('unhandled rejection', null)).toMatch(/a null$/);
    const hostile = Object.defineProperty(new Error('x'), 'message', {
      get(): string {
        throw new Error('no');
      },
    });
    expect(lastResortLine('uncaught exception', hostile)).toMatch(/an unreadable reason$/);
  });

  it('[R12.18] logs at most 10 lines a minute, then counts the rest into the next line; undo stops it', () => {
    const target = new EventEmitter();
    const lines: string[] = [];
    let clock = 0;
    const undo = installLastResort(
      (line) => lines.push(line),
      () => clock,
      target,
    );
    for (let index = 0; index < 25; index += 1) target.emit('unhandledRejection', new Error(`e${index}`));
    expect(lines).toHaveLength(10);
    clock = 60_000;
    target.emit('uncaughtException', new Error('later'));
    expect(lines.at(-1)).toBe(
      'askaway: kept serving after an uncaught exception: Error: later (and 15 more not logged before it)',
    );
    undo();
    expect(target.listenerCount('unhandledRejection') + target.listenerCount('uncaughtException')).toBe(0);
  });
});
