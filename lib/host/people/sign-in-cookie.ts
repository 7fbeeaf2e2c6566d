import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import * as z from 'zod/mini';

/** Between `/auth/start` and `/auth/callback` (R21.6): what the callback must check the provider's answer against. */
export const SignInSessionSchema = z.strictObject({
  state: z.string().check(z.minLength(20), z.maxLength(200)),
  nonce: z.string().check(z.minLength(20), z.maxLength(200)),
  verifier: z.string().check(z.minLength(43), z.maxLength(128)),
  expiresAt: z.int(),
});
export type SignInSession = z.infer<typeof SignInSessionSchema>;

export const SIGN_IN_COOKIE = 'askaway_sign_in';
/** Long enough to type a password and answer a second factor; the cookie dies with it. */
export const SIGN_IN_TTL_MS = 10 * 60_000;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The sign-in session lives in the browser, sealed (AES-256-GCM: nobody can read the PKCE verifier in it or
 * change it), so that a callback reaching any replica of a team hub can check it (R21.6). The key is derived from
 * the client secret, which every replica has and nobody else.
 */
export class SignInCookie {
  private readonly key: Buffer;

  constructor(
    clientSecret: string,
    private readonly secure: boolean,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', clientSecret, 'askaway', 'askaway sign-in session v1', 32));
  }

  /** The `Set-Cookie` value carrying `session`. */
  set(session: SignInSession): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const value = Buffer.concat([iv, sealed]).toString('base64url');
    return this.attributes(`${SIGN_IN_COOKIE}=${value}`, Math.ceil(SIGN_IN_TTL_MS / 1000));
  }

  /** The `Set-Cookie` value that removes it: a sign-in session is used once. */
  clear(): string {
    return this.attributes(`${SIGN_IN_COOKIE}=`, 0);
  }

  /** The session in the request's cookies, if one is there, was sealed by this hub and has not expired. */
  read(cookieHeader: string | undefined, now: number): SignInSession | undefined {
    const raw = cookieValue(cookieHeader, SIGN_IN_COOKIE);
    if (!raw) return undefined;
    const bytes = Buffer.from(raw, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const parsed = SignInSessionSchema.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.expiresAt > now ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private attributes(pair: string, maxAge: number): string {
    // Lax, not Strict: the provider's redirect back is a cross-site top-level navigation, which Strict would strip.
    return `${pair}; Path=/auth; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
