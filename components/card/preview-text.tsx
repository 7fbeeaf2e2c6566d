'use client';
import { Fragment, useMemo, type ReactNode } from 'react';
import { highlight } from '@/lib/client/code-highlight';
import { parsePreview, type Block, type Inline } from '@/lib/client/preview-markdown';
import '@/app/styles/preview.css';

/**
 * A text preview as its author laid it out (R9.15): markdown's headings, lists, tables, quotes and fenced code
 * (the fences gone, the code coloured lightly), prose wrapped, anything drawn with spaces or box characters kept
 * monospaced and unwrapped, scrolling sideways. Built from React elements only: no HTML gets through (R12.2).
 */
export function PreviewText({ source }: { source: string }) {
  const blocks = useMemo(() => parsePreview(source), [source]);
  return (
    <div className="preview__text md" tabIndex={0} data-testid="card.preview-text">
      <Blocks blocks={blocks} />
    </div>
  );
}

function Blocks({ blocks }: { blocks: readonly Block[] }) {
  return blocks.map((block, index) => <BlockView key={index} block={block} />);
}

function BlockView({ block }: { block: Block }): ReactNode {
  switch (block.kind) {
    case 'heading': {
      // Under the preview's own title (h3): h4 and below.
      const Heading = block.level <= 1 ? 'h4' : block.level === 2 ? 'h5' : 'h6';
      return (
        <Heading className="md__heading" data-level={block.level}>
          <Inlines parts={block.inline} />
        </Heading>
      );
    }
    case 'paragraph':
      return (
        <p className="md__paragraph">
          {block.lines.map((line, index) => (
            <Fragment key={index}>
              {index > 0 ? <br /> : null}
              <Inlines parts={line} />
            </Fragment>
          ))}
        </p>
      );
    case 'art':
      return <pre className="md__art">{block.text}</pre>;
    case 'code':
      return (
        <pre className="md__code" data-lang={block.lang || undefined}>
          {block.lang ? <span className="md__lang">{block.lang}</span> : null}
          <code>
            {highlight(block.text, block.lang).map((token, index) =>
              token.kind ? (
                <span key={index} className={`tok-${token.kind}`}>
                  {token.text}
                </span>
              ) : (
                <Fragment key={index}>{token.text}</Fragment>
              ),
            )}
          </code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, index) => (
        <li key={index} data-task={item.task === null ? undefined : item.task ? 'done' : 'open'}>
          {item.task === null ? null : <span aria-hidden="true">{item.task ? '☑ ' : '☐ '}</span>}
          <Blocks blocks={item.blocks} />
        </li>
      ));
      return block.ordered ? (
        <ol className="md__list" start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul className="md__list">{items}</ul>
      );
    }
    case 'table':
      return (
        <div className="md__table">
          <table>
            <thead>
              <tr>
                {block.head.map((cell, index) => (
                  <th key={index} style={{ textAlign: block.align[index] ?? undefined }}>
                    <Inlines parts={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    <td key={index} style={{ textAlign: block.align[index] ?? undefined }}>
                      <Inlines parts={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'quote':
      return (
        <blockquote className="md__quote">
          <Blocks blocks={block.blocks} />
        </blockquote>
      );
    case 'rule':
      return <hr className="md__rule" />;
  }
}

function Inlines({ parts }: { parts: readonly Inline[] }) {
  return parts.map((part, index) => {
    switch (part.kind) {
      case 'text':
        return <Fragment key={index}>{part.text}</Fragment>;
      case 'code':
        return (
          <code key={index} className="md__inline-code">
            {part.text}
          </code>
        );
      case 'strong':
        return (
          <strong key={index}>
            <Inlines parts={part.children} />
          </strong>
        );
      case 'em':
        return (
          <em key={index}>
            <Inlines parts={part.children} />
          </em>
        );
      case 'del':
        return (
          <del key={index}>
            <Inlines parts={part.children} />
          </del>
        );
    }
  });
}
