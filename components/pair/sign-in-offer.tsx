'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type HubSignIn } from '@/lib/contracts/hub-api';
import '@/lib/client/i18n-en-pair';
import '@/app/styles/sign-in.css';

/**
 * On a team hub that signs people in (R21.32): the first thing a never-paired browser is offered. The sign-in is
 * the hub's own page (a full navigation, not the app's router), which ends back on /pair with a code.
 */
export function SignInOffer({ signIn }: { signIn: HubSignIn }) {
  const { t } = useI18n();
  return (
    <div className="sign-in-offer" data-testid="sign-in.offer">
      <a href={signIn.path} className="button button--primary button--block" data-testid="sign-in.button">
        {t('pair.signIn')}
      </a>
      <p>{t('pair.signInHint', { provider: signIn.provider })}</p>
    </div>
  );
}
