import fs from 'node:fs';
import path from 'node:path';
import { type ServerResponse } from 'node:http';

/** Used until the PWA build provides its own policy: the fallback pages run no script. */
const FALLBACK_CSP = "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** How often the policy file is checked for a rebuild. */
const RECHECK_MS = 1_000;

/**
 * The app-wide Content-Security-Policy (R12.2): the PWA build writes it to
 * `_askaway/csp-header.txt`. A rebuild changes the inline-script hashes, so the file
 * is re-read when its mtime changes (checked at most once a second): rebuilding
 * while the host runs needs no restart. `frame-ancestors` is enforced either way.
 */
export class SecurityHeaders {
  private csp: string | undefined;
  private mtimeMs = -1;
  private checkedAt = -Infinity;

  constructor(private readonly staticDir: string) {}

  apply(res: ServerResponse): void {
    res.setHeader('Content-Security-Policy', this.policy());
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  }

  private policy(): string {
    this.refresh();
    const base = this.csp ?? FALLBACK_CSP;
    return /frame-ancestors/i.test(base) ? base : `${base.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
  }

  private refresh(): void {
    const now = Date.now();
    if (now - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = now;
    const file = path.join(this.staticDir, '_askaway', 'csp-header.txt');
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      this.csp = undefined;
      this.mtimeMs = -1;
      return;
    }
    if (mtimeMs === this.mtimeMs) return;
    this.mtimeMs = mtimeMs;
    this.csp = readPolicy(file);
  }
}

function readPolicy(file: string): string | undefined {
  try {
    // A header value cannot span lines.
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/\s*\n\s*/g, ' ')
      .trim();
    return text.length > 0 ? text : undefined;
  } catch {
    return undefined;
  }
}
