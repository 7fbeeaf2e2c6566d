// An MCP `elicitation/create` as the phone's form (R18.4), whichever agent relays it (Codex R18.12, Claude Code R11.11).
import { type FormInput } from '../../contracts';
import { formFieldsOf } from './form-fields';

/** What every agent passes on of an MCP server's elicitation. */
export interface McpElicitation {
  serverName: string;
  message: string;
  /** `form` or `url` (MCP 2025-11-25); anything else stays in the terminal. */
  mode: string;
  requestedSchema?: unknown;
  url?: string | undefined;
}

/** Longest page address a card carries (FormInputSchema). */
const URL_MAX = 4_000;

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/** The card's input for an elicitation, or why the phone cannot show it (the agent's terminal asks instead). */
export function formInputOf(elicitation: McpElicitation): FormInput | { unsupported: string } {
  const serverName = clip(elicitation.serverName, 200);
  const message = clip(elicitation.message, 8_000);
  if (serverName.trim() === '') return { unsupported: 'the MCP server has no name' };
  if (elicitation.mode === 'url') {
    const url = elicitation.url;
    if (!url || !/^https?:\/\//i.test(url)) return { unsupported: 'the page to open is not an http(s) URL' };
    // Clipping would open another page.
    if (url.length > URL_MAX) return { unsupported: `the page to open has a URL longer than ${URL_MAX} characters` };
    return { serverName, message, mode: 'url', fields: [], url };
  }
  if (elicitation.mode !== 'form') return { unsupported: `an elicitation in mode "${elicitation.mode}"` };
  const form = formFieldsOf(elicitation.requestedSchema);
  if ('problem' in form) return { unsupported: form.problem };
  return { serverName, message, mode: 'form', fields: form.fields };
}
