/**
 * A minimal fake DOM for unit tests of the page-side logic (describe-element, tools): just the
 * element API those modules read, and a querySelectorAll for `tag`, `#id`, `.class` and `*`,
 * throwing a SyntaxError for anything else, as the real one does for invalid selectors.
 */

export interface FakeSpec {
  tag: string;
  attrs?: Record<string, string>;
  text?: string;
  rect?: { x: number; y: number; width: number; height: number };
  children?: FakeSpec[];
}

/** A text node, as `childNodes` lists it before an element's children. */
export interface FakeText {
  readonly nodeType: 3;
  readonly nodeValue: string;
}

export class FakeElement {
  readonly nodeType = 1;
  readonly localName: string;
  readonly tagName: string;
  readonly namespaceURI = 'http://www.w3.org/1999/xhtml';
  parentElement: FakeElement | null = null;
  readonly children: FakeElement[] = [];
  readonly attributes: { name: string; value: string }[];
  ownerDocument!: FakeDocument;
  private readonly ownText: string;
  private readonly rect: { x: number; y: number; width: number; height: number };

  constructor(spec: FakeSpec) {
    this.localName = spec.tag;
    this.tagName = spec.tag.toUpperCase();
    this.attributes = Object.entries(spec.attrs ?? {}).map(([name, value]) => ({ name, value }));
    this.ownText = spec.text ?? '';
    this.rect = spec.rect ?? { x: 0, y: 0, width: 10, height: 10 };
  }

  get id(): string {
    return this.getAttribute('id') ?? '';
  }
  get isConnected(): boolean {
    return true;
  }
  get firstElementChild(): FakeElement | null {
    return this.children[0] ?? null;
  }
  get nextElementSibling(): FakeElement | null {
    const siblings = this.parentElement?.children ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  get textContent(): string {
    return this.ownText + this.children.map((c) => c.textContent).join('');
  }
  /** The element's own text first, then its children. */
  get childNodes(): (FakeText | FakeElement)[] {
    return this.ownText ? [{ nodeType: 3, nodeValue: this.ownText }, ...this.children] : [...this.children];
  }
  getAttribute(name: string): string | null {
    return this.attributes.find((a) => a.name === name)?.value ?? null;
  }
  getBoundingClientRect() {
    const { x, y, width, height } = this.rect;
    return { x, y, width, height, left: x, top: y, right: x + width, bottom: y + height };
  }
  contains(other: FakeElement): boolean {
    for (let n: FakeElement | null = other; n; n = n.parentElement) if (n === this) return true;
    return false;
  }
  *descendants(): Generator<FakeElement> {
    for (const c of this.children) {
      yield c;
      yield* c.descendants();
    }
  }
}

export class FakeDocument {
  readonly documentElement: FakeElement;
  activeElement: FakeElement | null = null;
  constructor(root: FakeElement) {
    this.documentElement = root;
  }
  getElementById(id: string): FakeElement | null {
    return [this.documentElement, ...this.documentElement.descendants()].find((el) => el.id === id) ?? null;
  }
  querySelectorAll(selector: string): FakeElement[] {
    const s = selector.trim();
    let match: (el: FakeElement) => boolean;
    if (s === '*') match = () => true;
    else if (/^#[\w-]+$/.test(s)) match = (el) => el.id === s.slice(1);
    else if (/^\.[\w-]+$/.test(s)) match = (el) => (el.getAttribute('class') ?? '').split(/\s+/).includes(s.slice(1));
    else if (/^[a-z][\w-]*$/i.test(s)) match = (el) => el.localName === s.toLowerCase();
    else {
      const err = new Error(`'${selector}' is not a valid selector.`);
      err.name = 'SyntaxError';
      throw err;
    }
    return [this.documentElement, ...this.documentElement.descendants()].filter(match);
  }
}

function build(spec: FakeSpec, doc: { current: FakeDocument | null }, all: FakeElement[]): FakeElement {
  const el = new FakeElement(spec);
  all.push(el);
  for (const child of spec.children ?? []) {
    const c = build(child, doc, all);
    c.parentElement = el;
    el.children.push(c);
  }
  return el;
}

/**
 * A computed style read from the element's `style` attribute alone (`display: none`, `color: red`):
 * enough for the page logic that asks for display, visibility or a colour.
 */
export function styleFromAttribute(el: Element): { getPropertyValue(name: string): string } {
  const declared = new Map(
    (el.getAttribute('style') ?? '')
      .split(';')
      .map((d) => d.split(':').map((s) => s.trim()))
      .filter((d): d is [string, string] => d.length === 2),
  );
  return { getPropertyValue: (name) => declared.get(name) ?? '' };
}

/** Builds a document from a spec tree; returns it and a finder by id. */
export function createFakeDocument(root: FakeSpec) {
  const all: FakeElement[] = [];
  const holder: { current: FakeDocument | null } = { current: null };
  const html = build(root, holder, all);
  const doc = new FakeDocument(html);
  for (const el of all) el.ownerDocument = doc;
  const byId = (id: string) => {
    const el = all.find((e) => e.id === id);
    if (!el) throw new Error(`no #${id}`);
    return el as unknown as Element;
  };
  return { doc, html, byId, all };
}
