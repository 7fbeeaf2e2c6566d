'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type TeamPerson } from '@/lib/contracts/team-api';
import { personName } from '@/lib/client/person-name';
import '@/lib/client/i18n-en-team';

/** More people than this and the picker gets a filter. */
const FILTER_FROM = 7;

/**
 * An accessible list of people to choose from (R21.77, R21.81): radios for one (hand-over), checkboxes for several
 * (a group's members), each a full-width row at least 44 px high, named and with their email.
 */
export function PeoplePicker({
  people,
  chosen,
  multiple,
  legend,
  onChange,
  testId,
}: {
  people: readonly TeamPerson[];
  chosen: ReadonlySet<string>;
  multiple: boolean;
  legend: string;
  onChange: (chosen: ReadonlySet<string>) => void;
  testId: string;
}) {
  const { t } = useI18n();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? people.filter((person) => `${person.name ?? ''} ${person.email ?? ''}`.toLowerCase().includes(needle))
    : people;
  return (
    <fieldset className="picker" data-testid={testId}>
      <legend className="picker__legend">{legend}</legend>
      {people.length >= FILTER_FROM ? (
        <input
          className="field picker__filter"
          type="search"
          value={filter}
          placeholder={t('team.filterPeople')}
          aria-label={t('team.filterPeople')}
          onChange={(event) => setFilter(event.target.value)}
        />
      ) : null}
      <ul className="picker__list">
        {shown.map((person) => (
          <li key={person.id}>
            <label className="picker__option" data-testid={`${testId}-option`} data-person-id={person.id}>
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={testId}
                checked={chosen.has(person.id)}
                onChange={(event) => {
                  if (!multiple) return onChange(new Set([person.id]));
                  const next = new Set(chosen);
                  if (event.target.checked) next.add(person.id);
                  else next.delete(person.id);
                  onChange(next);
                }}
              />
              <span className="picker__who">
                <bdi className="picker__name">{personName(person)}</bdi>
                {person.email && person.name ? <bdi className="picker__email">{person.email}</bdi> : null}
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 ? <li className="picker__none">{t('team.nobodyMatches')}</li> : null}
      </ul>
    </fieldset>
  );
}
