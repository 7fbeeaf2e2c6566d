import { type PersonProfile } from '../../contracts';

const TEXT_MAX = 320;
const GROUPS_MAX = 200;

/**
 * What the log keeps of the provider's claims (R21.8): email, whether it is verified, a name and the `groups`
 * claim. Control characters are dropped and long values cut, so no claim can refuse the sign-in or drive a terminal.
 */
export function profileFromClaims(claims: Record<string, unknown>): PersonProfile {
  const email = text(claims.email);
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  const name = text(claims.name) ?? (given || text(claims.preferred_username));
  const groups = Array.isArray(claims.groups)
    ? claims.groups
        .map(text)
        .filter((group): group is string => group !== undefined)
        .slice(0, GROUPS_MAX)
    : undefined;
  return {
    ...(email !== undefined ? { email } : {}),
    ...(typeof claims.email_verified === 'boolean' ? { emailVerified: claims.email_verified } : {}),
    ...(name ? { name } : {}),
    ...(groups ? { groups } : {}),
  };
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  return cleaned ? cleaned.slice(0, TEXT_MAX) : undefined;
}
