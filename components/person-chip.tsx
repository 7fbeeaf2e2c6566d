import { useI18n } from '@/hooks/use-i18n';
import { type QuestionOwner } from '@/lib/contracts/team-names';
import { IconGroup, IconPerson } from './icons/people';
import '@/lib/client/i18n-en-prompts';

/**
 * Whose a team hub's question is (R21.22): "Ana Lima" beside a person, "CI runners" beside a group, outlined like
 * the machine's chip. Screen readers hear "Asked for Ana Lima". Nothing on a personal hub: its questions have none.
 */
export function PersonChip({ owner }: { owner: QuestionOwner | undefined }) {
  const { t } = useI18n();
  if (!owner) return null;
  const label =
    owner.kind === 'group'
      ? t('person.askedForGroup', { name: owner.name })
      : t('person.askedFor', { name: owner.name });
  const Icon = owner.kind === 'group' ? IconGroup : IconPerson;
  return (
    <span
      className="chip chip--machine chip--person"
      data-testid="person-chip"
      data-owner-kind={owner.kind}
      data-owner-id={owner.id}
      title={label}
    >
      <Icon size={14} />
      <span className="sr-only">{label}</span>
      <bdi className="chip__text" aria-hidden="true">
        {owner.name}
      </bdi>
    </span>
  );
}
