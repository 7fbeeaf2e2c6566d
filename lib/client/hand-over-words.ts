import { type HandOver } from '../contracts/team-names';
import { type Translate } from './i18n';
import './i18n-en-prompts';

// What a team hub's card, inbox row and History say of a hand-over (R21.23, R21.76).

/** "Handed to you by Ana" (`meId`: this device's person), "Handed to Ben by Ana"; the operator when no one did. */
export function handOverText(handedOver: HandOver, meId: string | null | undefined, t: Translate): string {
  const toYou = meId !== undefined && meId !== null && handedOver.to.id === meId;
  if (handedOver.by === undefined)
    return toYou ? t('person.handedToYouByOperator') : t('person.handedToByOperator', { to: handedOver.to.name });
  return toYou
    ? t('person.handedToYou', { by: handedOver.by.name })
    : t('person.handedTo', { to: handedOver.to.name, by: handedOver.by.name });
}
