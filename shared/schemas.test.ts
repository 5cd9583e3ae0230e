import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { describeIssues } from './errors.ts';
import { LIMITS } from './limits.ts';
import { HelloSchema, MessageSendSchema } from './schemas.ts';

const element = { tagName: 'button', xpath: '/html/body/button', attributes: {}, textContent: 'Save', boundingClientRect: { x: 0, y: 0, width: 10, height: 10 } };
const send = (patch: Record<string, unknown>) => ({
  type: 'message.send',
  id: 'r1',
  chatId: 'c1',
  content: [{ type: 'text', text: 'hi' }],
  metadata: { source: 'other', selectedElements: [] },
  ...patch,
});

describe('the component chain of a selected element', () => {
  const withChain = (components: unknown) => send({ metadata: { source: 'other', selectedElements: [{ ...element, components }] } });
  const frame = { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 };

  it('takes up to maxComponents entries, a name alone or with its place', () => {
    expect(v.safeParse(MessageSendSchema, withChain([frame, { name: 'App' }])).success).toBe(true);
    expect(v.safeParse(MessageSendSchema, withChain(Array(LIMITS.maxComponents).fill(frame))).success).toBe(true);
  });

  it('refuses more entries, or longer names and files, as too_large', () => {
    const cases: [unknown, string][] = [
      [Array(LIMITS.maxComponents + 1).fill(frame), 'metadata.selectedElements.0.components'],
      [[{ ...frame, name: 'N'.repeat(LIMITS.maxComponentNameLength + 1) }], 'metadata.selectedElements.0.components.0.name'],
      [[{ ...frame, file: 'f'.repeat(LIMITS.maxSourceFileLength + 1) }], 'metadata.selectedElements.0.components.0.file'],
    ];
    for (const [components, path] of cases) {
      const parsed = v.safeParse(MessageSendSchema, withChain(components));
      expect(parsed.issues).toHaveLength(1);
      expect(describeIssues(parsed.issues!)).toMatchObject({ code: 'too_large', path });
    }
  });

  it('refuses an empty name and lines or columns that are not 1-based integers', () => {
    for (const bad of [{ name: '' }, { ...frame, line: 0 }, { ...frame, column: 1.5 }, { ...frame, line: '4' }]) {
      expect(describeIssues(v.safeParse(MessageSendSchema, withChain([bad])).issues!)).toMatchObject({ code: 'invalid_message' });
    }
  });
});

describe('arrays and records over their limit', () => {
  it('are one too_large issue, whatever their items hold', () => {
    const cases: [unknown, typeof MessageSendSchema | typeof HelloSchema, string][] = [
      [send({ content: Array(100_000).fill(0) }), MessageSendSchema, 'content'],
      [send({ metadata: { source: 'other', selectedElements: Array(100_000).fill({}) } }), MessageSendSchema, 'metadata.selectedElements'],
      [send({ metadata: { source: 'other', selectedElements: [{ ...element, attributes: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`a${i}`, i])) }] } }), MessageSendSchema, 'metadata.selectedElements.0.attributes'],
      [{ type: 'hello', protocol: 1, client: { kind: 'other' }, tools: Array(100_000).fill(null) }, HelloSchema, 'tools'],
      [send({ metadata: { source: 'other', selectedElements: [{ ...element, components: Array(100_000).fill(0) }] } }), MessageSendSchema, 'metadata.selectedElements.0.components'],
    ];
    for (const [frame, schema, path] of cases) {
      const parsed = v.safeParse(schema, frame);
      expect(parsed.success).toBe(false);
      expect(parsed.issues).toHaveLength(1);
      expect(describeIssues(parsed.issues!)).toMatchObject({ code: 'too_large', path });
    }
  });

  it('still check each item when the length is within the limit', () => {
    const parsed = v.safeParse(MessageSendSchema, send({ metadata: { source: 'other', selectedElements: [element, { ...element, attributes: { id: 1 } }] } }));
    expect(describeIssues(parsed.issues!)).toMatchObject({ code: 'invalid_message', path: 'metadata.selectedElements.1.attributes.id' });
    expect(describeIssues(v.safeParse(MessageSendSchema, send({ content: [] })).issues!)).toMatchObject({ code: 'invalid_message', path: 'content', message: 'content: Content must not be empty' });
    const full = v.safeParse(MessageSendSchema, send({ content: Array(LIMITS.maxParts).fill({ type: 'text', text: 'x' }), metadata: { source: 'other', selectedElements: Array(LIMITS.maxSelectedElements).fill(element) } }));
    expect(full.success).toBe(true);
  });
});
