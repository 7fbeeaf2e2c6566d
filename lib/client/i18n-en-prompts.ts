import { addEnglish } from './i18n';

/**
 * English words of a prompt wherever one shows (inbox rows, cards, History, Sessions: not the pairing page or
 * Settings): its kind, countdown and whether an answer is queued (how it ended is ./i18n-en-outcomes.ts). Each component that uses one imports this file;
 * lib/client/i18n-tables.test.ts checks that (R13.4).
 */
export const enPrompts = {
  'question.chip': 'Question',
  'countdown.continuesIn': 'Agent continues on its own in {t}',
  'countdown.continuesNow': 'Agent continues on its own now',
  'countdown.continuesAt': 'Agent continues on its own at {time}',
  'countdown.wasDueAt': 'Agent was to continue on its own at {time}',
  'countdown.waits': 'The agent waits for you',
  'countdown.terminalIn': 'Moves to the terminal on {machine} in {t}',
  'countdown.terminalAt': 'Moves to the terminal on {machine} at {time}',
  'countdown.agentGoesOnIn': '{agent} goes on without your answer in {t}',
  'countdown.agentGoesOnAt': '{agent} goes on without your answer at {time}',
  'countdown.agentGoesOnNow': '{agent} is going on without your answer',
  'receipt.queued': 'Queued — will send when connected',
  'plan.chip': 'Plan',
  'plan.title': 'Approve the plan?',
  'permission.title': 'Allow {tool}?',
  'person.askedFor': 'Asked for {name}',
  'person.askedForGroup': 'Asked for the group {name}',
  'person.handedToYou': 'Handed to you by {by}',
  'person.handedTo': 'Handed to {to} by {by}',
  'person.handedToYouByOperator': 'Handed to you by the hub’s operator',
  'person.handedToByOperator': 'Handed to {to} by the hub’s operator',
} as const;

addEnglish(enPrompts);
