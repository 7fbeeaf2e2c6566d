import QRCode from 'qrcode';
import { type PairingCodeResponse } from '../../lib/contracts';

/** "works once, until 14:32:05 (10 minutes)": a pairing link's or join code's terms, as the terminal shows them (R16.2, R17.1). */
export function pairingTerms(pairing: Pick<PairingCodeResponse, 'expiresAt'>, now = new Date()): string {
  const expires = new Date(pairing.expiresAt);
  const minutes = Math.max(0, Math.round((expires.getTime() - now.getTime()) / 60_000));
  const left = minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : 'under a minute';
  return `works once, until ${expires.toTimeString().slice(0, 8)} (${left})`;
}

/** The link as a QR code for a terminal. */
export function pairingQr(link: string): Promise<string> {
  return QRCode.toString(link, { type: 'terminal', small: true });
}

/**
 * Whether a phone that opens `link` reaches this machine: a loopback address (127.x, localhost, ::1) is
 * each device's own, so a phone scanning it opens itself. Such a link gets no QR code.
 */
export function phoneCanOpen(link: string): boolean {
  try {
    return !isLoopbackHost(new URL(link).hostname);
  } catch {
    return false;
  }
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}
