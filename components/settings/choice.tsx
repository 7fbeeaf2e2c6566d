'use client';

interface Props<T extends string> {
  id: string;
  title: string;
  value: T;
  options: { value: T; label: string; lang?: string }[];
  onChange: (value: T) => void;
}

/** A segmented radio group: native radios, so arrow keys and screen readers just work. */
export function Choice<T extends string>({ id, title, value, options, onChange }: Props<T>) {
  return (
    <section className="settings__section" data-testid={`settings.${id}`}>
      <fieldset className="settings__group segmented">
        <legend className="settings__title">{title}</legend>
        <div className="segmented__options">
          {options.map((option) => (
            <label
              key={option.value}
              className="segmented__option"
              data-checked={option.value === value ? 'true' : undefined}
              lang={option.lang}
            >
              <input
                type="radio"
                name={id}
                value={option.value}
                checked={option.value === value}
                onChange={() => onChange(option.value)}
                data-testid={`settings.${id}.${option.value}`}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
