import { describe, expect, it } from 'vitest';
import { interactionKindForTool } from './interaction';

describe('dispatch by tool name', () => {
  it('[R3.2] maps AskUserQuestion to question, ExitPlanMode to plan-approval, others to permission', () => {
    expect(interactionKindForTool('AskUserQuestion')).toBe('question');
    expect(interactionKindForTool('ExitPlanMode')).toBe('plan-approval');
    for (const name of ['Bash', 'Write', 'askuserquestion', '', 'AskUserQuestion ']) {
      expect(interactionKindForTool(name)).toBe('permission');
    }
  });
});
