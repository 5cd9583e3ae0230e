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

describe('arrays and records over their limit', () => {
  it('are one too_large issue, whatever their items hold', () => {
    const cases: [unknown, typeof MessageSendSchema | typeof HelloSchema, string][] = [
      [send({ content: Array(100_000).fill(0) }), MessageSendSchema, 'content'],
      [send({ metadata: { source: 'other', selectedElements: Array(100_000).fill({}) } }), MessageSendSchema, 'metadata.selectedElements'],
      [send({ metadata: { source: 'other', selectedElements: [{ ...element, attributes: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`a${i}`, i])) }] } }), MessageSendSchema, 'metadata.selectedElements.0.attributes'],
      [{ type: 'hello', protocol: 1, client: { kind: 'other' }, tools: Array(100_000).fill(null) }, HelloSchema, 'tools'],
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
