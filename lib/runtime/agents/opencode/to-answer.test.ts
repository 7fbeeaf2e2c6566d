import { describe, expect, it } from 'vitest';
import { joinClaudeCodeLabels } from '../../../contracts';
import { permissionReply, questionReply } from './to-answer';

const asked = {
  questions: [{ question: 'Which database?' }, { question: 'Which areas?', multiSelect: true }, { question: 'Name?' }],
};
const multiple = [false, true, false];

describe('[R18.23] answers as OpenCode takes them', () => {
  it('[R18.23] answers go back by position; several labels apart; typed text as typed', () => {
    const reply = questionReply('que_1', asked, multiple, {
      action: 'accept',
      content: {
        answers: {
          'Which database?': 'Postgres',
          'Which areas?': joinClaudeCodeLabels(['Auth', 'Billing, EU', 'Say "hi"']),
          'Name?': 'Use MariaDB, typed by me',
        },
      },
    });
    expect(reply).toEqual({
      url: '/question/que_1/reply',
      body: { answers: [['Postgres'], ['Auth', 'Billing, EU', 'Say "hi"'], ['Use MariaDB, typed by me']] },
      summary: 'answered 3 of 3',
    });
  });

  it('[R18.23] a skipped question is [], skipping all (and auto-resolution) answers none', () => {
    expect(
      questionReply('que_1', asked, multiple, {
        action: 'accept',
        content: { answers: { 'Which database?': 'SQLite' } },
      }).body,
    ).toEqual({
      answers: [['SQLite'], [], []],
    });
    expect(questionReply('que_1', asked, multiple, { action: 'accept', content: { answers: {} } })).toMatchObject({
      body: { answers: [[], [], []] },
      summary: 'skipped',
    });
    expect(questionReply('que_1', asked, multiple, { action: 'accept' }).body).toEqual({ answers: [[], [], []] });
  });

  it('[R18.23] a decline or a cancel is a reject (OpenCode takes no reason for a question)', () => {
    expect(questionReply('que_1', asked, multiple, { action: 'decline', message: 'not now' })).toEqual({
      url: '/question/que_1/reject',
      body: {},
      summary: 'declined',
    });
    expect(questionReply('que/1', asked, multiple, { action: 'cancel' }).url).toBe('/question/que%2F1/reject');
  });
});

describe('[R18.24] permission replies', () => {
  it('[R18.24] the choice taken, or reject with the reason given', () => {
    expect(permissionReply('per_1', { action: 'accept', content: { choice: 'once' } }).body).toEqual({ reply: 'once' });
    expect(permissionReply('per_1', { action: 'accept', content: { choice: 'always' } })).toEqual({
      url: '/permission/per_1/reply',
      body: { reply: 'always' },
      summary: 'always',
    });
    expect(permissionReply('per_1', { action: 'decline', message: '  Keep the build folder ' }).body).toEqual({
      reply: 'reject',
      message: 'Keep the build folder',
    });
    expect(permissionReply('per_1', { action: 'decline', message: '  ' }).body).toEqual({ reply: 'reject' });
    expect(permissionReply('per_1', { action: 'cancel' }).body).toEqual({ reply: 'reject' });
  });
});
