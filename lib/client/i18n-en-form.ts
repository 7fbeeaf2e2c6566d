import { addEnglish } from './i18n';

/** English strings of an MCP form card (R18.4): they ship with that card's chunk only. */
export const enForm = {
  'form.asks': '{server} asks',
  'form.required': 'required',
  'form.optional': 'optional',
  'form.range': 'From {min} to {max}',
  'form.atLeast': 'At least {min}',
  'form.atMost': 'At most {max}',
  'form.send': 'Send',
  'form.openPage': 'Open the page',
  'form.openPageHint': 'It opens in your browser. Come back and tap Done when you are through.',
  'form.done': 'Done',
  'form.decline': 'Decline',
  'form.cancel': 'Cancel',
  'form.declineTitle': 'Decline this form?',
  'form.declineHint': '{server} hears that you declined.',
  'form.cancelTitle': 'Cancel this form?',
  'form.cancelHint': '{server} hears that you cancelled without an answer.',
  'form.step': 'Field {i} of {n}',
  'form.yes': 'Yes',
  'form.no': 'No',
  'form.sentDone': 'Done',
  'form.sent': 'Sent',
} as const;

addEnglish(enForm);
