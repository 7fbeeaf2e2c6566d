'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type Preferences } from '@/lib/contracts';
import { formatDuration } from '@/lib/client/format';
import { SwitchRow } from './switch-row';
import { usePreferenceSave } from './use-preference-save';
import '@/lib/client/i18n-en-settings';

const TIMEOUTS_MS = [60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 3_600_000];

/** The host-wide preference (R6.1, R9.9): every remote sees a change at once. */
export function AutoResolutionSettings({
  preferences,
  connected,
  locked = false,
}: {
  preferences: Preferences | null;
  connected: boolean;
  /** A member's device on a team hub: shown, not changeable (R21.71). */
  locked?: boolean;
}) {
  const { t } = useI18n();
  const { save, failure } = usePreferenceSave();
  const enabled = preferences?.askUserQuestionAutoResolutionEnabled ?? false;
  const timeout = preferences?.askUserQuestionAutoResolutionTimeoutMs ?? 10 * 60_000;
  const options = TIMEOUTS_MS.includes(timeout) ? TIMEOUTS_MS : [...TIMEOUTS_MS, timeout].sort((a, b) => a - b);
  const disabled = !connected || !preferences || locked;
  return (
    <section className="settings__section" aria-labelledby="s-auto" data-testid="settings.auto">
      <h2 id="s-auto" className="settings__title">
        {t('settings.autoResolution')}
      </h2>
      <div className="settings__group">
        <SwitchRow
          label={t('settings.autoToggle')}
          checked={enabled}
          disabled={disabled}
          strong
          onChange={(on) => save({ askUserQuestionAutoResolutionEnabled: on })}
          testId="settings.auto-toggle"
        />
        <label className="settings__row">
          <span className="settings__label">{t('settings.autoTimeout')}</span>
          <select
            className="field settings__select"
            value={timeout}
            disabled={disabled || !enabled}
            onChange={(event) => save({ askUserQuestionAutoResolutionTimeoutMs: Number(event.target.value) })}
            data-testid="settings.auto-timeout"
          >
            {options.map((ms) => (
              <option key={ms} value={ms}>
                {formatDuration(ms, t)}
              </option>
            ))}
          </select>
        </label>
        <p className="settings__explain" data-testid="settings.auto-explain">
          {enabled ? t('settings.autoExplainOn', { t: formatDuration(timeout, t) }) : t('settings.autoExplainOff')}
        </p>
        <p className="form__hint">
          {locked ? t('settings.teamLocked') : disabled ? t('settings.autoOffline') : t('settings.autoShared')}
        </p>
        {failure}
      </div>
    </section>
  );
}
