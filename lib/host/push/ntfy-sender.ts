import { errorMessage } from '../../contracts';

export interface NtfyMessage {
  title: string;
  body: string;
  /** Absolute URL opened when the ntfy notification is tapped. */
  click?: string;
  tags?: string[];
}

/**
 * `detail` is what a device may read of its own test (a status, never a server's words, R12.20);
 * `answer` is the start of what the server said, for the owner's log only.
 */
export type NtfyOutcome = { status: 'sent' } | { status: 'failed'; detail: string; answer?: string };

/** What publishing needs of `fetch`; a device's topic goes through `publicOnlyPost` instead (R12.15). */
export type NtfyPost = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'error' },
) => Promise<{ status: number; text(): Promise<string> }>;

/**
 * Publishes to an ntfy topic URL (https://ntfy.sh/<topic> or a self-hosted one) the way
 * ntfy documents it: the message as the body, title and link as headers.
 */
export async function sendNtfy(
  topicUrl: string,
  message: NtfyMessage,
  options: { post?: NtfyPost; timeoutMs?: number } = {},
): Promise<NtfyOutcome> {
  const post: NtfyPost = options.post ?? fetch;
  const headers: Record<string, string> = {
    'Content-Type': 'text/plain; charset=utf-8',
    Title: headerValue(message.title),
  };
  if (message.click) {
    const href = new URL(message.click).href;
    headers.Click = href;
    // Its one button opens the card (R14.12): no answer ever goes through a third-party server.
    headers.Actions = `view, "Open card", "${href}", clear=true`;
  }
  if (message.tags && message.tags.length > 0) headers.Tags = headerValue(message.tags.join(','));
  try {
    // No redirect is followed: a topic's server cannot send the question somewhere else.
    const response = await post(topicUrl, {
      method: 'POST',
      headers,
      body: message.body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      redirect: 'error',
    });
    if (response.status < 200 || response.status >= 300) {
      const text = await response.text().catch(() => '');
      return { status: 'failed', detail: `ntfy answered ${response.status}`, answer: text.slice(0, 200) };
    }
    return { status: 'sent' };
  } catch (error) {
    return { status: 'failed', detail: `ntfy unreachable: ${errorMessage(error)}` };
  }
}

/**
 * HTTP header values are bytes, not text: non-ASCII titles (a Chinese question, an emoji)
 * travel as an RFC 2047 encoded word, which ntfy (≥ 2.4) decodes. Line breaks never reach a header.
 */
export function headerValue(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ').trim();
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}
