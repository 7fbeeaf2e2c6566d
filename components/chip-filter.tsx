'use client';
import { type ComponentType } from 'react';
import { type IconProps } from './icons/svg';
import { IconCheck } from './icons/shell';
import '@/app/styles/chip-filter.css';

export interface FilterChoice {
  /** '' is the "all" choice. */
  id: string;
  name: string;
  Icon?: ComponentType<IconProps> | undefined;
}

/**
 * Sessions and History by machine (R17.3) or by agent (R18.1): one tap per choice, as radio buttons
 * shaped like chips (arrow keys move between them). The chosen one shows a check mark, not only a colour.
 */
export function ChipFilter({
  testId,
  legend,
  name,
  choices,
  value,
  onChange,
}: {
  testId: string;
  legend: string;
  name: string;
  choices: readonly FilterChoice[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <fieldset className="chip-filter" data-testid={testId}>
      <legend className="chip-filter__legend">{legend}</legend>
      <div className="chip-filter__options">
        {choices.map((choice) => {
          const checked = choice.id === value;
          const Icon = checked ? IconCheck : choice.Icon;
          return (
            <label
              key={choice.id || 'all'}
              className="chip-filter__option"
              data-testid={`${testId}.option`}
              data-value={choice.id}
              data-checked={checked ? 'true' : undefined}
            >
              <input
                type="radio"
                className="chip-filter__input"
                name={name}
                value={choice.id}
                checked={checked}
                onChange={() => onChange(choice.id)}
              />
              {Icon ? <Icon size={16} /> : null}
              <span className="chip-filter__text">{choice.name}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
