'use client';
import { useI18n, useLocalSettings } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { useKnownTeam } from '@/hooks/use-team';
import { useRemote } from '@/hooks/use-remote';
import { REMOTE_PROTOCOL_VERSION } from '@/lib/contracts/limits';
import { updateLocalSettings, type LangChoice, type ThemeChoice } from '@/lib/client/local-settings';
import { machinesLive } from '@/lib/client/machine-presence';
import { NotificationSettings } from '../notification-settings';
import { AutoResolutionSettings } from './auto-resolution-settings';
import { AwaySettings } from './away-settings';
import { Choice } from './choice';
import { MachinesSettings } from './machines-settings';
import '@/lib/client/i18n-en-settings';
import '@/app/styles/settings.css';

declare const __APP_VERSION__: string | undefined;
const APP_VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.1.0';

/**
 * Settings below the first screen (connection and devices): machines, away, auto-resolution, notifications, language,
 * theme, versions. Their own chunk, loaded as Settings opens (./settings-view.tsx).
 */
export function SettingsBelow() {
  const { t } = useI18n();
  const settings = useLocalSettings();
  const pairing = usePairing();
  const state = useRemote();
  const connected = state.status === 'connected';
  // The hub-wide preferences are the owner's and admins' on a team hub (R21.71): a member sees them, unchangeable.
  const team = useKnownTeam();
  const locked = team ? !team.canManage : false;
  return (
    <>
      {pairing ? (
        <MachinesSettings
          machines={state.host.machines}
          live={machinesLive(state)}
          clockOffsetMs={state.host.clockOffsetMs}
          member={locked}
        />
      ) : null}

      <AwaySettings preferences={state.host.preferences} connected={connected} locked={locked} />

      <AutoResolutionSettings preferences={state.host.preferences} connected={connected} locked={locked} />

      <NotificationSettings connected={connected} preferences={state.host.preferences} locked={locked} />

      <Choice<LangChoice>
        id="language"
        title={t('settings.language')}
        value={settings.lang}
        onChange={(lang) => updateLocalSettings({ lang })}
        options={[
          { value: 'system', label: t('settings.languageSystem') },
          { value: 'en', label: 'English', lang: 'en' },
          { value: 'zh', label: '中文', lang: 'zh-CN' },
        ]}
      />
      <Choice<ThemeChoice>
        id="theme"
        title={t('settings.theme')}
        value={settings.theme}
        onChange={(theme) => updateLocalSettings({ theme })}
        options={[
          { value: 'system', label: t('settings.themeSystem') },
          { value: 'light', label: t('settings.themeLight') },
          { value: 'dark', label: t('settings.themeDark') },
        ]}
      />

      <section className="settings__section" aria-labelledby="s-about" data-testid="settings.about">
        <h2 id="s-about" className="settings__title">
          {t('settings.about')}
        </h2>
        <dl className="settings__group settings__about">
          <div className="settings__row">
            <dt className="settings__label">{t('settings.appVersion')}</dt>
            <dd className="settings__value">{APP_VERSION}</dd>
          </div>
          <div className="settings__row">
            <dt className="settings__label">{t('settings.hostVersion')}</dt>
            <dd className="settings__value">{state.host.hostVersion ?? '—'}</dd>
          </div>
          <div className="settings__row">
            <dt className="settings__label">{t('settings.protocolVersion')}</dt>
            <dd className="settings__value">{REMOTE_PROTOCOL_VERSION}</dd>
          </div>
        </dl>
      </section>
    </>
  );
}
