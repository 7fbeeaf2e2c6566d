'use client';

/** One labelled on/off switch row of Settings (a checkbox with role switch): the whole row is the touch target. */
export function SwitchRow({
  label,
  checked,
  disabled,
  onChange,
  testId,
  strong = false,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  /** The section's main switch: its label in the stronger weight. */
  strong?: boolean;
}) {
  return (
    <label className="settings__row switch-row">
      <span className={strong ? 'settings__label settings__label--strong' : 'settings__label'}>{label}</span>
      <input
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
    </label>
  );
}
