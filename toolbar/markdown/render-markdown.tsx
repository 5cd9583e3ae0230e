/**
 * Turns the Markdown AST into Preact VNodes. Only elements listed here are ever created, all text
 * goes in as text nodes, and links get only sanitized hrefs: there is no path from message text
 * to HTML.
 */
import type { ComponentChildren, VNode } from 'preact';
import { CodeBlock } from '../components/CodeBlock.tsx';
import type { Align, Block, ListItem } from './parse-blocks.ts';
import type { Inline } from './parse-inline.ts';

function renderInline(nodes: readonly Inline[]): ComponentChildren[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'strong':
        return <strong key={i}>{renderInline(node.children)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.children)}</em>;
      case 'del':
        return <del key={i}>{renderInline(node.children)}</del>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer">
            {renderInline(node.children)}
          </a>
        );
      case 'br':
        return <br key={i} />;
    }
  });
}

function alignStyle(align: Align | undefined): { textAlign: string } | undefined {
  return align ? { textAlign: align } : undefined;
}

function renderItem(item: ListItem, i: number): VNode {
  const tight = item.children.length <= 1;
  return (
    <li key={i} class={item.checked === null ? undefined : 'ab-task'}>
      {item.checked === null ? null : (
        <span class="ab-task-box" role="img" aria-label={item.checked ? 'done' : 'not done'}>
          {item.checked ? '☑' : '☐'}
        </span>
      )}
      {tight && item.children[0]?.type === 'paragraph'
        ? renderInline(item.children[0].children)
        : renderBlocks(item.children)}
    </li>
  );
}

function renderBlock(block: Block, i: number): VNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={i}>{renderInline(block.children)}</p>;
    case 'heading': {
      // Chat headings stay small: h1..h6 map to four visual sizes.
      const Tag = `h${Math.min(6, Math.max(1, block.level))}` as 'h1';
      return <Tag key={i}>{renderInline(block.children)}</Tag>;
    }
    case 'code':
      return <CodeBlock key={i} lang={block.lang} text={block.text} />;
    case 'list':
      return block.ordered ? (
        <ol key={i} start={block.start === 1 ? undefined : block.start}>
          {block.items.map(renderItem)}
        </ol>
      ) : (
        <ul key={i}>{block.items.map(renderItem)}</ul>
      );
    case 'blockquote':
      return <blockquote key={i}>{renderBlocks(block.children)}</blockquote>;
    case 'hr':
      return <hr key={i} />;
    case 'table':
      return (
        <div key={i} class="ab-table-wrap">
          <table>
            <thead>
              <tr>
                {block.head.map((cell, c) => (
                  <th key={c} style={alignStyle(block.align[c])}>
                    {renderInline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} style={alignStyle(block.align[c])}>
                      {renderInline(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/**
 * Renders parsed blocks.
 *
 * @example
 * <div class="ab-md">{renderBlocks(parseMarkdown(text))}</div>
 */
export function renderBlocks(blocks: readonly Block[]): VNode[] {
  return blocks.map(renderBlock);
}

/**
 * Renders blocks that continue a list of blocks rendered before: keys count on from `first`, so
 * the pieces concatenated equal `renderBlocks` of all blocks.
 *
 * @example
 * [...renderBlocks(head), ...renderBlocksFrom(rest, head.length)]
 */
export function renderBlocksFrom(blocks: readonly Block[], first: number): VNode[] {
  return blocks.map((block, i) => renderBlock(block, first + i));
}
