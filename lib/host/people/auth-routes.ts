import { type IncomingMessage, type ServerResponse } from 'node:http';
import { errorMessage, type PairingCodeResponse } from '../../contracts';
import { type AuditOf } from '../audit/audit-trail';
import { type HttpRouteHandler } from '../http/routes';
import { problemPage, signInPage } from './auth-pages';
import { describeOidcError } from './oidc-errors';
import { type OidcClient } from './oidc-client';
import { CALLBACK_PATH, SIGN_IN_PATH, START_PATH } from './oidc-settings';
import { PersonRemovedError, type PeopleService } from './people-service';
import { SIGN_IN_TTL_MS, type SignInCookie } from './sign-in-cookie';

export interface AuthRoutesOptions {
  hubName: string;
  oidc: OidcClient;
  cookie: SignInCookie;
  people: PeopleService;
  /** The hub's public address: where the sign-in starts, so that its cookie and the callback share an origin. */
  publicBase: string;
  mintPairingCode(): Promise<PairingCodeResponse>;
  /** The sign-in's record (R21.60), with the browser's address. */
  auditSignIn?: (req: IncomingMessage) => AuditOf<{ personId: string; name: string }>;
  log(line: string): void;
  now?: () => number;
}

/**
 * `/auth/sign-in`, `/auth/start` and `/auth/callback` (R21.5–R21.7, R21.10–R21.12): a person signs in at the hub's
 * provider with the authorization code flow and PKCE; a sign-in that passes every check ends with a pairing code
 * minted for that person and the browser sent to `/pair` with it, where the app pairs this browser as their device.
 * A refused or broken sign-in gets a page that says why, and nothing is written.
 */
export function createAuthRoutes(options: AuthRoutesOptions): HttpRouteHandler {
  const now = options.now ?? Date.now;
  const providerHost = new URL(options.oidc.issuer).host;
  const problem = (res: ServerResponse, status: number, title: string, text: string, hint: string) =>
    sendHtml(res, status, problemPage({ hubName: options.hubName, title, problem: text, hint }));

  return async (req, res, context) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Sign-in pages are GET only\n');
      return;
    }
    switch (context.pathname) {
      case SIGN_IN_PATH:
        sendHtml(res, 200, signInPage(options.hubName, providerHost, `${options.publicBase}${START_PATH}`));
        return;
      case START_PATH:
        await start(res);
        return;
      case CALLBACK_PATH:
        await callback(req, res);
        return;
      default:
        problem(res, 404, 'Not found', `Nothing at ${context.pathname}.`, 'Sign in from the start.');
    }
  };

  async function start(res: ServerResponse): Promise<void> {
    let begun;
    try {
      begun = await options.oidc.begin();
    } catch (error) {
      options.log(`[askaway] sign-in: cannot reach the provider ${options.oidc.issuer}: ${errorMessage(error)}`);
      problem(
        res,
        502,
        'The sign-in provider cannot be reached',
        `This hub could not read the sign-in settings of ${providerHost}.`,
        'Try again in a moment. If it keeps failing, tell whoever runs this hub: its log says why.',
      );
      return;
    }
    const { url, state, nonce, verifier } = begun;
    res.writeHead(302, {
      Location: url.href,
      'Set-Cookie': options.cookie.set({ state, nonce, verifier, expiresAt: now() + SIGN_IN_TTL_MS }),
      'Cache-Control': 'no-store',
    });
    res.end();
  }

  async function callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = options.cookie.read(req.headers.cookie, now());
    // The session is used once, whatever comes of it.
    res.setHeader('Set-Cookie', options.cookie.clear());
    const query = new URL(req.url ?? '/', 'http://hub').searchParams;
    if (!session) {
      problem(
        res,
        400,
        'This sign-in has expired',
        'This browser has no sign-in under way: it was started in another browser, more than 10 minutes ago, or already finished.',
        'Start again from this browser.',
      );
      return;
    }
    const refusal = query.get('error');
    if (refusal !== null) {
      // The provider's words only when the answer is to this browser's own sign-in: a forged link shows none.
      const ours = query.get('state') === session.state;
      const said = (ours ? (query.get('error_description') ?? refusal) : 'no reason given').replace(/[.\s]+$/, '');
      options.log(`[askaway] sign-in refused by ${providerHost}: ${ours ? refusal : 'an answer to another sign-in'}`);
      problem(
        res,
        403,
        'Sign-in refused',
        `${providerHost} did not let you in: ${said}.`,
        'No device was paired. If you should have access, ask whoever runs this hub to let you in at the provider.',
      );
      return;
    }
    const callbackUrl = new URL(options.oidc.redirectUri);
    callbackUrl.search = query.toString();
    let identity;
    try {
      identity = await options.oidc.finish(callbackUrl, session);
    } catch (error) {
      const why = describeOidcError(error);
      options.log(`[askaway] sign-in failed: ${why}`);
      problem(
        res,
        502,
        'The sign-in could not be finished',
        `The answer from ${providerHost} did not pass this hub's checks: ${why}.`,
        'No device was paired. Start again; if it keeps failing, tell whoever runs this hub.',
      );
      return;
    }
    try {
      const pairing = await options.mintPairingCode();
      await options.people.signedIn(identity, pairing.code, options.auditSignIn?.(req));
      res.writeHead(303, { Location: pairing.link, 'Cache-Control': 'no-store' });
      res.end();
    } catch (error) {
      if (error instanceof PersonRemovedError) {
        options.log('[askaway] sign-in refused: a person removed from this hub signed in again');
        problem(
          res,
          403,
          'Sign-in refused',
          'You were removed from this hub.',
          'No device was paired. If you should have access, ask whoever runs this hub.',
        );
        return;
      }
      options.log(`[askaway] sign-in could not be recorded: ${errorMessage(error)}`);
      problem(
        res,
        503,
        'The sign-in could not be recorded',
        `You signed in at ${providerHost}, but this hub could not write it down (its log says why).`,
        'No device was paired. Start again in a moment.',
      );
    }
  }
}

/** The sign-in pages' own policy: their inline style and nothing else, whether or not the app is built. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': PAGE_CSP,
  });
  res.end(html);
}
