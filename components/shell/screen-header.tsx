import { ConnectionPill } from './connection-status';

/**
 * Title + connection pill. The subtitle slot carries counts like "2 waiting". `pairedOnly`: no pill for a device
 * that has not paired (the pairing page: there is nothing to be connected to yet).
 */
export function ScreenHeader({
  title,
  subtitle,
  pairedOnly = false,
}: {
  title: string;
  subtitle?: React.ReactNode;
  pairedOnly?: boolean;
}) {
  return (
    <header className="screen-header">
      <div className="screen-header__row">
        <h1 className="screen-header__title">{title}</h1>
        <ConnectionPill pairedOnly={pairedOnly} />
      </div>
      {subtitle ? <p className="screen-header__subtitle">{subtitle}</p> : null}
    </header>
  );
}
