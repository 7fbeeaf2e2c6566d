'use client';

/** One line of a unified diff, as it shows: added, removed, a hunk header, or context. */
function lineKind(line: string): 'add' | 'remove' | 'hunk' | 'context' {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+') && !line.startsWith('+++')) return 'add';
  if (line.startsWith('-') && !line.startsWith('---')) return 'remove';
  return 'context';
}

/**
 * A file's diff (R18.3), monospaced and unwrapped, scrolling sideways; added and removed lines are marked
 * with their sign and a tint, never with colour alone. A new file's content shows as added lines.
 */
export function DiffView({ diff, added }: { diff: string; added: boolean }) {
  const unified = !added || diff.startsWith('@@') || /^(---|\+\+\+|diff |Index: )/m.test(diff);
  const lines = diff.replace(/\n$/, '').split('\n');
  return (
    <pre className="diff" tabIndex={0} data-testid="card.diff">
      {lines.map((line, index) => {
        const kind = unified ? lineKind(line) : 'add';
        return (
          <span key={index} className={`diff__line diff__line--${kind}`}>
            {unified ? line : `+${line}`}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
