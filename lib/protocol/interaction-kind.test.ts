import { describe, expect, it } from 'vitest';
import { interactionKindForTool, shouldProjectAsPermissionPrompt } from './interaction-kind';

describe('dispatch by tool name', () => {
  it('[R3.2] maps AskUserQuestion to question, ExitPlanMode to plan-approval, others to permission', () => {
    expect(interactionKindForTool('AskUserQuestion')).toBe('question');
    expect(interactionKindForTool('ExitPlanMode')).toBe('plan-approval');
    for (const name of ['Bash', 'Write', 'askuserquestion', '', 'AskUserQuestion ']) {
      expect(interactionKindForTool(name)).toBe('permission');
    }
  });

  it('[R3.3] suppresses the Allow/Deny projection for AskUserQuestion and ExitPlanMode only', () => {
    expect(shouldProjectAsPermissionPrompt('AskUserQuestion')).toBe(false);
    expect(shouldProjectAsPermissionPrompt('ExitPlanMode')).toBe(false);
    expect(shouldProjectAsPermissionPrompt('Bash')).toBe(true);
  });
});
