import { describe, expect, it } from 'vitest';
import type { Op } from '../../shared/schemas.ts';
import { OpBuffer } from './op-buffer.ts';

function drain(pending: OpBuffer): Op[] {
  return JSON.parse(`[${pending.take()}]`) as Op[];
}

describe('op buffer', () => {
  it('merges consecutive appends to one path and keeps other ops in order', () => {
    const pending = new OpBuffer();
    pending.record([{ op: 'append', path: '/0/content/0/text', value: 'He' }]);
    pending.record([{ op: 'append', path: '/0/content/0/text', value: 'llo' }]);
    pending.record([{ op: 'append', path: '/0/content/1/text', value: 'x' }]);
    pending.record([{ op: 'append', path: '/0/content/0/text', value: '!' }]);
    pending.record([{ op: 'replace', path: '/0/status', value: 'done' }]);
    expect(drain(pending)).toEqual([
      { op: 'append', path: '/0/content/0/text', value: 'Hello' },
      { op: 'append', path: '/0/content/1/text', value: 'x' },
      { op: 'append', path: '/0/content/0/text', value: '!' },
      { op: 'replace', path: '/0/status', value: 'done' },
    ]);
    expect(pending.isEmpty).toBe(true);
  });

  it('captures values when recorded, so later mutations of them are not written', () => {
    const pending = new OpBuffer();
    const message = { id: 'm1', content: [{ type: 'text', text: 'a' }] };
    pending.record([{ op: 'add', path: '/-', value: message }]);
    message.content[0]!.text = 'changed later';
    expect(drain(pending)).toEqual([{ op: 'add', path: '/-', value: { id: 'm1', content: [{ type: 'text', text: 'a' }] } }]);
  });

  it('puts ops back in front of newer ones after a failed write', () => {
    const pending = new OpBuffer();
    pending.record([{ op: 'append', path: '/0/text', value: 'a' }]);
    const taken = pending.take();
    pending.record([{ op: 'append', path: '/0/text', value: 'b' }]);
    pending.restore(taken);
    expect(drain(pending)).toEqual([
      { op: 'append', path: '/0/text', value: 'a' },
      { op: 'append', path: '/0/text', value: 'b' },
    ]);
  });
});
