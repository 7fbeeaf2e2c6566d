import { useI18n } from '@/hooks/use-i18n';
import { useKnownTeam } from '@/hooks/use-team';
import { type HandOver } from '@/lib/contracts/team-names';
import { handOverText } from '@/lib/client/hand-over-words';
import { IconHandOver } from './icons/people';
import '@/lib/client/i18n-en-prompts';

/** "Handed to you by Ana" (R21.23, R21.76): an admin gave this question to someone, maybe this device's person. */
export function HandedOverNote({ handedOver, className = '' }: { handedOver: HandOver; className?: string }) {
  const { t } = useI18n();
  const meId = useKnownTeam()?.me?.id;
  return (
    <span className={`state state--handed ${className}`} data-testid="handed-over" data-to={handedOver.to.id}>
      <IconHandOver size={14} />
      {handOverText(handedOver, meId, t)}
    </span>
  );
}
