import { describe, expect, it } from 'vitest';
import { createFakeDocument, styleFromAttribute, type FakeSpec } from '../test-dom.ts';
import { buildAccessibilityTree, type AccessibilityNode } from './accessibility-tree.ts';

const styleOf = styleFromAttribute;

function page(children: FakeSpec[]) {
  const dom = createFakeDocument({ tag: 'html', children: [{ tag: 'head', children: [{ tag: 'title', text: 'Shop' }] }, { tag: 'body', children }] });
  const body = dom.all.find((e) => e.localName === 'body')! as unknown as Element;
  return { ...dom, body };
}

function tree(root: Element, maxNodes = 200, isOwnNode: (el: Element) => boolean = () => false, title?: string) {
  return buildAccessibilityTree(root, { isOwnNode, styleOf, maxNodes }, title);
}

describe('buildAccessibilityTree', () => {
  it('gives landmarks, headings, links and text, folding generic containers away', () => {
    const { body } = page([
      {
        tag: 'header',
        children: [
          {
            tag: 'nav',
            attrs: { 'aria-label': 'Main' },
            children: [{ tag: 'div', children: [{ tag: 'ul', children: [{ tag: 'li', children: [{ tag: 'a', attrs: { href: '/' }, text: 'Home', children: [{ tag: 'span', text: ' page' }] }] }] }] }],
          },
        ],
      },
      {
        tag: 'main',
        children: [
          { tag: 'h2', text: 'Orders' },
          { tag: 'p', text: 'Paid ', children: [{ tag: 'strong', text: 'today' }, { tag: 'span', text: '' }] },
          { tag: 'div', children: [{ tag: 'div', text: 'loose text' }] },
        ],
      },
      { tag: 'script', text: 'console.log(1)' },
    ]);
    const result = tree(body, 200, () => false, 'Shop');
    // Text joined across folded elements counts once: 'Paid today' is one node.
    expect(result.nodes).toBe(11);
    expect(result.tree).toEqual({
      role: 'document',
      name: 'Shop',
      children: [
        { role: 'banner', children: [{ role: 'navigation', name: 'Main', children: [{ role: 'list', children: [{ role: 'listitem', children: [{ role: 'link', name: 'Home page' }] }] }] }] },
        { role: 'main', children: [{ role: 'heading', name: 'Orders', level: 2 }, { role: 'paragraph', children: ['Paid today'] }, 'loose text'] },
      ],
    });
  });

  it('names form controls from labels, alt text and aria, with their values and states', () => {
    const { body, doc, byId } = page([
      {
        tag: 'form',
        children: [
          { tag: 'label', attrs: { for: 'email' }, text: 'Email' },
          { tag: 'input', attrs: { id: 'email', type: 'email', value: 'ada@example.com', required: '' } },
          { tag: 'label', text: 'Remember me', children: [{ tag: 'input', attrs: { type: 'checkbox', checked: '' } }] },
          { tag: 'input', attrs: { type: 'password', value: 'hunter2', 'aria-label': 'Password' } },
          { tag: 'span', attrs: { id: 'hint' }, text: 'Sends the order' },
          { tag: 'button', attrs: { disabled: '', 'aria-labelledby': 'hint' }, text: 'Go' },
          { tag: 'button', attrs: { 'aria-expanded': 'false', 'aria-pressed': 'mixed' }, text: 'Menu' },
          { tag: 'input', attrs: { type: 'submit' } },
          { tag: 'img', attrs: { src: 'logo.png', alt: 'Acme logo' } },
          { tag: 'img', attrs: { src: 'line.png', alt: '' } },
          { tag: 'svg', children: [{ tag: 'path' }] },
          { tag: 'div', attrs: { role: 'tab', 'aria-selected': 'true', 'aria-invalid': 'true' }, text: 'Details' },
        ],
      },
    ]);
    doc.activeElement = byId('email') as never;
    // Started from <body> (no title: not the whole page), whose only node is the form.
    const form = tree(body).tree;
    expect(form.role).toBe('form');
    expect(form.children).toEqual([
      'Email',
      { role: 'textbox', name: 'Email', value: 'ada@example.com', focused: true, required: true },
      'Remember me',
      { role: 'checkbox', name: 'Remember me', checked: true },
      { role: 'textbox', name: 'Password' },
      'Sends the order',
      { role: 'button', name: 'Sends the order', disabled: true },
      { role: 'button', name: 'Menu', expanded: false, pressed: 'mixed' },
      { role: 'button', name: 'Submit' },
      { role: 'img', name: 'Acme logo' },
      { role: 'tab', name: 'Details', selected: true, invalid: true },
    ]);
    expect(JSON.stringify(form)).not.toContain('hunter2');
  });

  it('names a field from the label around it, without the field’s own content', () => {
    const { body } = page([
      { tag: 'label', text: 'Status ', children: [{ tag: 'select', children: [{ tag: 'option', text: 'Any' }, { tag: 'option', text: 'Paid' }] }] },
    ]);
    expect(tree(body).tree).toEqual({ role: 'generic', children: ['Status', { role: 'combobox', name: 'Status' }] });
  });

  it('leaves out hidden subtrees, invisible text and the toolbar', () => {
    const { body, all } = page([
      { tag: 'div', attrs: { style: 'display: none' }, children: [{ tag: 'button', text: 'Hidden' }] },
      { tag: 'div', attrs: { 'aria-hidden': 'true' }, text: 'decoration' },
      { tag: 'p', attrs: { inert: '' }, text: 'inert' },
      { tag: 'div', attrs: { style: 'visibility: hidden' }, text: 'invisible', children: [{ tag: 'button', attrs: { style: 'visibility: visible' }, text: 'Shown' }] },
      { tag: 'agentbar-toolbar', children: [{ tag: 'button', text: 'Open agentbar' }] },
      { tag: 'button', text: 'Visible' },
    ]);
    const host = all.find((e) => e.localName === 'agentbar-toolbar')!;
    const result = tree(body, 200, (el) => host.contains(el as never));
    expect(result.tree.children).toEqual([
      { role: 'button', name: 'Shown' },
      { role: 'button', name: 'Visible' },
    ]);
  });

  it('starts from one element, and stops at the node bound saying so', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ tag: 'li', text: `Item ${i}` }));
    const { byId } = page([{ tag: 'ul', attrs: { id: 'list' }, children: items }]);
    const whole = tree(byId('list'));
    expect(whole).toMatchObject({ nodes: 101, truncated: false, tree: { role: 'list' } });
    expect(whole.tree.children).toHaveLength(50);
    const cut = tree(byId('list'), 10);
    expect(cut.nodes).toBe(10);
    expect(cut.truncated).toBe(true);
  });

  it('stops at the depth bound and marks where', () => {
    let spec: FakeSpec = { tag: 'button', text: 'deep' };
    for (let i = 0; i < 60; i++) spec = { tag: 'section', attrs: { 'aria-label': `s${i}` }, children: [spec] };
    const { body } = page([spec]);
    const result = tree(body);
    expect(result.truncated).toBe(true);
    let node = result.tree;
    let depth = 0;
    while (node.children?.[0]) {
      node = node.children[0] as AccessibilityNode;
      depth++;
    }
    expect(depth).toBeLessThan(40);
    expect(node.childrenOmitted).toBe(true);
  });

  it('wraps a generic start element that holds several nodes', () => {
    const { byId } = page([{ tag: 'div', attrs: { id: 'box' }, children: [{ tag: 'button', text: 'A' }, { tag: 'button', text: 'B' }] }]);
    expect(tree(byId('box')).tree).toEqual({ role: 'generic', children: [{ role: 'button', name: 'A' }, { role: 'button', name: 'B' }] });
  });
});
