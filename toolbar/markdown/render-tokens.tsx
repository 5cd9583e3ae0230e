/**
 * Turns marked's tokens into Preact VNodes. Only elements listed here are ever created, all text
 * goes in as text nodes (raw HTML in a message shows as the text it is), links get only sanitized
 * hrefs, and images become links: there is no path from message text to HTML, and a message never
 * loads a remote resource.
 */
import type { ComponentChildren, VNode } from 'preact';
import type { Token, Tokens } from 'marked';
import { CodeBlock } from '../components/CodeBlock.tsx';
import { decodeEntities } from './decode-entities.ts';
import { createFootnoteNumbers, type FootnoteNumbers, type FootnoteRefToken, type FootnoteToken } from './footnotes.ts';
import { sanitizeHref } from './sanitize-href.ts';

export interface RenderOptions {
  /**
   * Plain HTML shapes (`<pre><code class="language-x">`, tables without their scroll wrapper), for
   * comparing with the CommonMark spec's HTML; the toolbar renders code blocks with their header.
   */
  plain?: boolean;
  /** How footnotes are numbered so far; pieces of one text rendered separately share it. */
  footnotes?: FootnoteNumbers;
  /**
   * List items rendered before, by token. A streaming render passes one: list-resume.ts hands back
   * the same token for every item a delta cannot change, and the same VNode for it lets Preact
   * skip that item whole instead of diffing every item of a growing list on every delta.
   */
  items?: ListItemCache;
}

/**
 * A list item's VNode and the footnote labels it numbered, in order. By token: list-resume.ts
 * reuses an item's token only at the place it had, so a token always renders at one index and depth.
 */
export type ListItemCache = WeakMap<Tokens.ListItem, { node: VNode; labels: string[] }>;

/** Deeper than this, content is shown as its text: hostile nesting must not blow the stack. */
const MAX_DEPTH = 48;

type Ctx = { plain: boolean; depth: number; footnotes: FootnoteNumbers; items: ListItemCache | null };

/** A footnote reference was clicked: bring its note (in the same message) into view and focus it. */
function showFootnote(e: MouseEvent) {
  const ref = e.currentTarget as HTMLElement;
  const label = ref.dataset.footnoteRef ?? '';
  const note = [...(ref.closest('.ab-md')?.querySelectorAll<HTMLElement>('[data-footnote]') ?? [])].find((n) => n.dataset.footnote === label);
  if (!note) return;
  note.scrollIntoView({ block: 'nearest' });
  note.focus({ preventScroll: true });
}

function textOfTokens(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map((t) => ('tokens' in t && t.tokens ? textOfTokens(t.tokens) : 'text' in t ? String(t.text) : '')).join('');
}

function renderInline(tokens: readonly Token[] | undefined, ctx: Ctx): ComponentChildren[] {
  if (!tokens) return [];
  if (ctx.depth > MAX_DEPTH) return [decodeEntities(textOfTokens(tokens))];
  const inner = { ...ctx, depth: ctx.depth + 1 };
  return tokens.map((token, i) => {
    switch (token.type) {
      case 'text': {
        const t = token as Tokens.Text;
        return t.tokens && t.tokens.length > 0 ? renderInline(t.tokens, inner) : t.escaped ? t.text : decodeEntities(t.text);
      }
      case 'escape':
        return (token as Tokens.Escape).text;
      case 'codespan':
        return <code key={i}>{(token as Tokens.Codespan).text}</code>;
      case 'strong':
        return <strong key={i}>{renderInline((token as Tokens.Strong).tokens, inner)}</strong>;
      case 'em':
        return <em key={i}>{renderInline((token as Tokens.Em).tokens, inner)}</em>;
      case 'del':
        return <del key={i}>{renderInline((token as Tokens.Del).tokens, inner)}</del>;
      case 'br':
        return <br key={i} />;
      case 'link': {
        const link = token as Tokens.Link;
        const href = sanitizeHref(decodeEntities(link.href));
        const children = renderInline(link.tokens, inner);
        if (!href) return children;
        const title = link.title ? decodeEntities(link.title) : undefined;
        return ctx.plain ? (
          <a key={i} href={href} title={title}>
            {children}
          </a>
        ) : (
          <a key={i} href={href} title={title} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      }
      case 'image': {
        // Never loaded: a link to it, labelled with its description.
        const image = token as Tokens.Image;
        const href = sanitizeHref(decodeEntities(image.href));
        const label = decodeEntities(image.text) || 'image';
        return href ? (
          <a key={i} href={href} target="_blank" rel="noopener noreferrer">
            {`🖼 ${label}`}
          </a>
        ) : (
          label
        );
      }
      case 'html':
      case 'tag':
        return (token as Tokens.HTML).text;
      case 'checkbox':
        return null;
      case 'footnoteRef': {
        const { label } = token as FootnoteRefToken;
        const n = ctx.footnotes.numberOf(label);
        return ctx.plain ? (
          <sup key={i}>{n}</sup>
        ) : (
          <sup key={i} class="ab-fnref">
            <button type="button" aria-label={`Footnote ${n}`} data-footnote-ref={label} onClick={showFootnote}>
              {n}
            </button>
          </sup>
        );
      }
      default:
        return 'raw' in token ? String(token.raw) : '';
    }
  });
}

/** Numbers as `footnotes` does, noting each label asked for in `labels`. */
function recordLabels(footnotes: FootnoteNumbers, labels: string[]): FootnoteNumbers {
  return {
    numberOf(label) {
      labels.push(label);
      return footnotes.numberOf(label);
    },
    copy: () => footnotes.copy(),
  };
}

function renderListItem(item: Tokens.ListItem, i: number, ctx: Ctx): VNode {
  const cached = ctx.items?.get(item);
  if (cached !== undefined) {
    // Footnotes are numbered in the order they are met: the ones in a skipped item still count.
    for (const label of cached.labels) ctx.footnotes.numberOf(label);
    return cached.node;
  }
  if (ctx.items === null) return renderListItemNode(item, i, ctx);
  const labels: string[] = [];
  const node = renderListItemNode(item, i, { ...ctx, footnotes: recordLabels(ctx.footnotes, labels) });
  ctx.items.set(item, { node, labels });
  return node;
}

function renderListItemNode(item: Tokens.ListItem, i: number, ctx: Ctx): VNode {
  const task = item.task;
  return (
    <li key={i} class={task ? 'ab-task' : undefined}>
      {task ? (
        <span class="ab-task-box" role="img" aria-label={item.checked ? 'done' : 'not done'}>
          {item.checked ? '☑' : '☐'}
        </span>
      ) : null}
      {renderBlockTokens(item.tokens.filter((t) => t.type !== 'checkbox'), ctx)}
    </li>
  );
}

function renderBlock(token: Token, key: number, ctx: Ctx): ComponentChildren {
  const inner = { ...ctx, depth: ctx.depth + 1 };
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return <p key={key}>{renderInline((token as Tokens.Paragraph).tokens, inner)}</p>;
    case 'text': {
      // A tight list item's text: inline, without a paragraph.
      const t = token as Tokens.Text;
      return t.tokens ? renderInline(t.tokens, inner) : decodeEntities(t.text);
    }
    case 'heading': {
      const h = token as Tokens.Heading;
      const Tag = `h${Math.min(6, Math.max(1, h.depth))}` as 'h1';
      return <Tag key={key}>{renderInline(h.tokens, inner)}</Tag>;
    }
    case 'code': {
      const code = token as Tokens.Code;
      const lang = (code.lang ?? '').trim().split(/\s+/)[0] ?? '';
      // An indented block's text keeps its last line break; a fenced block's does not.
      const body = code.text.endsWith('\n') ? code.text.slice(0, -1) : code.text;
      const text = code.text.length > 0 ? `${body}\n` : '';
      if (ctx.plain) {
        return (
          <pre key={key}>
            <code class={lang ? `language-${decodeEntities(lang)}` : undefined}>{text}</code>
          </pre>
        );
      }
      return <CodeBlock key={key} lang={decodeEntities(lang)} text={body} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{renderBlockTokens((token as Tokens.Blockquote).tokens, inner)}</blockquote>;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, i) => renderListItem(item, i, inner));
      if (!list.ordered) return <ul key={key}>{items}</ul>;
      const start = typeof list.start === 'number' ? list.start : 1;
      return (
        <ol key={key} start={start === 1 ? undefined : start}>
          {items}
        </ol>
      );
    }
    case 'hr':
      return <hr key={key} />;
    case 'footnote': {
      const note = token as FootnoteToken;
      const n = ctx.footnotes.numberOf(note.label);
      return (
        <div key={key} class="ab-footnote" role="note" aria-label={`Footnote ${n}`} data-footnote={note.label} tabIndex={ctx.plain ? undefined : -1}>
          <span class="ab-footnote-num" aria-hidden="true">
            {n}.
          </span>
          <div class="ab-footnote-body">{renderBlockTokens(note.tokens, inner)}</div>
        </div>
      );
    }
    case 'html': {
      // Raw HTML is shown as the text it is, never parsed.
      const html = token as Tokens.HTML;
      return (
        <p key={key} class="ab-raw">
          {html.text.replace(/\n+$/, '')}
        </p>
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      const align = (a: Tokens.TableCell['align']) => (a ? { textAlign: a } : undefined);
      const body = (
        <table key={ctx.plain ? key : undefined}>
          <thead>
            <tr>
              {table.header.map((cell, c) => (
                <th key={c} style={align(cell.align)}>
                  {renderInline(cell.tokens, inner)}
                </th>
              ))}
            </tr>
          </thead>
          {table.rows.length > 0 ? (
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} style={align(cell.align)}>
                      {renderInline(cell.tokens, inner)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          ) : null}
        </table>
      );
      return ctx.plain ? (
        body
      ) : (
        <div key={key} class="ab-table-wrap">
          {body}
        </div>
      );
    }
    default:
      return 'raw' in token ? <p key={key}>{String(token.raw)}</p> : null;
  }
}

function renderBlockTokens(tokens: readonly Token[], ctx: Ctx): ComponentChildren[] {
  if (ctx.depth > MAX_DEPTH) return [decodeEntities(textOfTokens(tokens))];
  return tokens.map((t, i) => renderBlock(t, i, ctx));
}

/**
 * Renders top-level tokens; keys count on from `first`, so pieces rendered separately and
 * concatenated equal one render of all tokens.
 *
 * @example <div class="ab-md">{renderTokens(lexMarkdown(text))}</div>
 */
export function renderTokens(tokens: readonly Token[], first = 0, options: RenderOptions = {}): VNode[] {
  const plain = options.plain === true;
  const ctx: Ctx = { plain, depth: 0, footnotes: options.footnotes ?? createFootnoteNumbers(), items: plain ? null : (options.items ?? null) };
  const out: VNode[] = [];
  tokens.forEach((token, i) => {
    const node = renderBlock(token, first + i, ctx);
    if (node === null || node === undefined || node === false) return;
    if (Array.isArray(node) || typeof node !== 'object') out.push(<span key={first + i}>{node}</span>);
    else out.push(node as VNode);
  });
  return out;
}
