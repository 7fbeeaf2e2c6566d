import { addEnglish } from './i18n';

/**
 * English strings only the inbox shows: they ship with the inbox, not with the other routes' first
 * screens (R13.4). Each component that uses one imports this file, as it imports its styles;
 * lib/client/i18n-tables.test.ts checks that.
 */
export const enInbox = {
  'inbox.nothingWaiting': 'Nothing waiting',
  'inbox.title': 'Inbox',
  'inbox.emptyTitle': 'No questions waiting',
  'inbox.emptyBody':
    'When your coding agent needs a decision from you, its question appears here — answer it from anywhere.',
  'inbox.connectAgent': 'Connect an agent',
  'inbox.connectAgentBody':
    'Run “askaway start” where your agents run. Claude Code: “askaway hook install --write”. OpenCode: “askaway opencode install”. Codex needs nothing more. Copilot CLI: “askaway copilot”. Any other agent: the MCP server (see the README).',
  'inbox.questionCount': '{n} questions',
  'inbox.finished': '{n} finished',
  'inbox.oneQuestion': '1 question',
  'machine.hub': 'hub',
  'machine.summary': 'Machines',
} as const;

addEnglish(enInbox);
