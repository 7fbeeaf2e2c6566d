import { ConnectionPill } from './connection-status';

/** Title + connection pill. The subtitle slot carries counts like "2 waiting". */
export function ScreenHeader({ title, subtitle }: { title: string; subtitle?: React.ReactNode }) {
  return (
    <header className="screen-header">
      <div className="screen-header__row">
        <h1 className="screen-header__title">{title}</h1>
        <ConnectionPill />
      </div>
      {subtitle ? <p className="screen-header__subtitle">{subtitle}</p> : null}
    </header>
  );
}
