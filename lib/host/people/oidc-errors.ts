import { errorMessage, isRecord } from '../../contracts';

/**
 * One line for why a sign-in's answer was refused (R21.6): the provider's OAuth error when it sent one
 * (`invalid_grant`: a code used twice, or a PKCE verifier that does not match), else the innermost check that
 * failed (`unexpected "state" response parameter value`, `unexpected ID Token "nonce" claim value`).
 */
export function describeOidcError(error: unknown): string {
  if (isRecord(error) && typeof error.error === 'string') {
    const description = typeof error.error_description === 'string' ? `: ${error.error_description}` : '';
    return `the provider answered ${error.error}${description}`;
  }
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  return errorMessage(innermost);
}
