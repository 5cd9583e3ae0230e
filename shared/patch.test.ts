import { describe, expect, it } from 'vitest';
import { PatchError, applyPatch, applyPatchInPlace, parsePointer, toPointer } from './patch.ts';
import type { Op } from './schemas.ts';

/** Deep copy, to prove later that the input was not touched. */
const clone = <T>(x: T): T => structuredClone(x);

function makeDoc() {
  return {
    chats: { a: { id: 'a', title: 'First' }, b: { id: 'b', title: 'Second' } },
    active: { chatId: 'a', messages: [{ id: 'm1', text: 'Hel' }, { id: 'm2', text: 'x' }] },
    tags: ['one', 'two'],
  };
}

describe('applyPatch on objects', () => {
  it('adds a new key', () => {
    const out = applyPatch(makeDoc(), [{ op: 'add', path: '/chats/c', value: { id: 'c', title: 'Third' } }]);
    expect(out.chats).toHaveProperty('c', { id: 'c', title: 'Third' });
  });

  it('add on an existing key replaces its value', () => {
    const out = applyPatch(makeDoc(), [{ op: 'add', path: '/chats/a/title', value: 'Renamed' }]);
    expect(out.chats.a.title).toBe('Renamed');
  });

  it('removes a key', () => {
    const out = applyPatch(makeDoc(), [{ op: 'remove', path: '/chats/b' }]);
    expect(Object.keys(out.chats)).toEqual(['a']);
  });

  it('replaces a value', () => {
    const out = applyPatch(makeDoc(), [{ op: 'replace', path: '/active/chatId', value: 'b' }]);
    expect(out.active.chatId).toBe('b');
  });

  it('appends to a string', () => {
    const out = applyPatch(makeDoc(), [{ op: 'append', path: '/active/messages/0/text', value: 'lo' }]);
    expect(out.active.messages[0]!.text).toBe('Hello');
  });

  it('refuses to remove or replace a missing key', () => {
    expect(() => applyPatch(makeDoc(), [{ op: 'remove', path: '/chats/zz' }])).toThrow(PatchError);
    expect(() => applyPatch(makeDoc(), [{ op: 'replace', path: '/chats/zz', value: 1 }])).toThrow(PatchError);
  });

  it('refuses to walk through a missing parent', () => {
    expect(() => applyPatch(makeDoc(), [{ op: 'add', path: '/nope/x', value: 1 }])).toThrow(/No value at \/nope\/x/);
  });

  it('refuses to walk through a primitive', () => {
    expect(() => applyPatch(makeDoc(), [{ op: 'add', path: '/active/chatId/x', value: 1 }])).toThrow(PatchError);
  });

  it('does not follow inherited properties', () => {
    expect(() => applyPatch(makeDoc(), [{ op: 'replace', path: '/toString', value: 1 }])).toThrow(PatchError);
    expect(() => applyPatch(makeDoc(), [{ op: 'add', path: '/constructor/x', value: 1 }])).toThrow(PatchError);
  });
});

describe('applyPatch on arrays', () => {
  it('inserts at an index, shifting the rest', () => {
    const out = applyPatch(makeDoc(), [{ op: 'add', path: '/tags/1', value: 'between' }]);
    expect(out.tags).toEqual(['one', 'between', 'two']);
  });

  it('appends with "-"', () => {
    const out = applyPatch(makeDoc(), [{ op: 'add', path: '/tags/-', value: 'three' }]);
    expect(out.tags).toEqual(['one', 'two', 'three']);
  });

  it('inserts at index == length (the end)', () => {
    const out = applyPatch(makeDoc(), [{ op: 'add', path: '/tags/2', value: 'three' }]);
    expect(out.tags).toEqual(['one', 'two', 'three']);
  });

  it('removes an element', () => {
    const out = applyPatch(makeDoc(), [{ op: 'remove', path: '/tags/0' }]);
    expect(out.tags).toEqual(['two']);
  });

  it('replaces an element', () => {
    const out = applyPatch(makeDoc(), [{ op: 'replace', path: '/tags/1', value: 'deux' }]);
    expect(out.tags).toEqual(['one', 'deux']);
  });

  it('appends to a string element', () => {
    const out = applyPatch(makeDoc(), [{ op: 'append', path: '/tags/0', value: '!' }]);
    expect(out.tags).toEqual(['one!', 'two']);
  });

  it.each([
    ['an index past the end', { op: 'add', path: '/tags/3', value: 'x' }],
    ['replace at index == length', { op: 'replace', path: '/tags/2', value: 'x' }],
    ['remove at index == length', { op: 'remove', path: '/tags/2' }],
    ['"-" for remove', { op: 'remove', path: '/tags/-' }],
    ['"-" for replace', { op: 'replace', path: '/tags/-', value: 'x' }],
    ['a leading zero', { op: 'replace', path: '/tags/01', value: 'x' }],
    ['a negative index', { op: 'remove', path: '/tags/-1' }],
    ['a non-numeric index', { op: 'remove', path: '/tags/first' }],
  ] satisfies [string, Op][])('refuses %s', (_name, op) => {
    expect(() => applyPatch(makeDoc(), [op])).toThrow(PatchError);
  });
});

describe('append', () => {
  it.each([
    ['a number', 7],
    ['an object', { a: 1 }],
    ['an array', ['a']],
    ['null', null],
  ])('fails when the target is %s', (_name, target) => {
    expect(() => applyPatch({ t: target }, [{ op: 'append', path: '/t', value: 'x' }])).toThrow(
      /append target is not a string: \/t/,
    );
  });

  it('fails when the target does not exist', () => {
    expect(() => applyPatch({}, [{ op: 'append', path: '/t', value: 'x' }])).toThrow(PatchError);
  });

  it('fails when the array element is not a string', () => {
    expect(() => applyPatch({ t: [1] }, [{ op: 'append', path: '/t/0', value: 'x' }])).toThrow(PatchError);
  });

  it('merges many appends of one frame in order', () => {
    const ops: Op[] = ['a', 'b', 'c'].map((value) => ({ op: 'append', path: '/s', value }));
    expect(applyPatch({ s: '' }, ops)).toEqual({ s: 'abc' });
  });
});

describe('JSON Pointer escaping', () => {
  it('reads ~1 as "/" and ~0 as "~"', () => {
    const doc = { 'a/b': 1, 'c~d': 2, '~1': 3 };
    const out = applyPatch(doc, [
      { op: 'replace', path: '/a~1b', value: 10 },
      { op: 'replace', path: '/c~0d', value: 20 },
      // "~01" is "~1" literally, not "/": ~0 is unescaped last.
      { op: 'replace', path: '/~01', value: 30 },
    ]);
    expect(out).toEqual({ 'a/b': 10, 'c~d': 20, '~1': 30 });
  });

  it('round-trips through toPointer and parsePointer', () => {
    const segments = ['chats', 'a/b', '~x', '~1', '', 0];
    expect(toPointer(segments)).toBe('/chats/a~1b/~0x/~01//0');
    expect(parsePointer(toPointer(segments))).toEqual(['chats', 'a/b', '~x', '~1', '', '0']);
  });

  it('addresses the empty key with a trailing "/"', () => {
    expect(applyPatch({ '': 1 }, [{ op: 'replace', path: '/', value: 2 }])).toEqual({ '': 2 });
  });

  it('rejects a pointer without a leading "/"', () => {
    expect(() => applyPatch({ a: 1 }, [{ op: 'replace', path: 'a', value: 2 }])).toThrow(/Invalid JSON Pointer/);
  });
});

describe('the document root', () => {
  it('can be replaced', () => {
    expect(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }])).toEqual({ b: 2 });
  });

  it('cannot be removed or appended to', () => {
    expect(() => applyPatch({ a: 1 }, [{ op: 'remove', path: '' }])).toThrow(PatchError);
    expect(() => applyPatch('s', [{ op: 'append', path: '', value: 'x' }])).toThrow(PatchError);
  });
});

describe('structural sharing', () => {
  it('never mutates its input', () => {
    const doc = makeDoc();
    const before = clone(doc);
    applyPatch(doc, [
      { op: 'append', path: '/active/messages/0/text', value: 'lo' },
      { op: 'add', path: '/tags/-', value: 'three' },
      { op: 'remove', path: '/chats/b' },
      { op: 'replace', path: '/chats/a/title', value: 'New' },
    ]);
    expect(doc).toEqual(before);
  });

  it('shares every branch the ops did not touch', () => {
    const doc = makeDoc();
    const out = applyPatch(doc, [{ op: 'append', path: '/active/messages/0/text', value: 'lo' }]);
    expect(out).not.toBe(doc);
    expect(out.active).not.toBe(doc.active);
    expect(out.active.messages).not.toBe(doc.active.messages);
    expect(out.active.messages[0]).not.toBe(doc.active.messages[0]);
    expect(out.chats).toBe(doc.chats);
    expect(out.tags).toBe(doc.tags);
    expect(out.active.messages[1]).toBe(doc.active.messages[1]);
  });

  it('copies a container once per frame, however many ops touch it', () => {
    const doc = makeDoc();
    const out = applyPatch(doc, [
      { op: 'append', path: '/active/messages/0/text', value: 'l' },
      { op: 'append', path: '/active/messages/0/text', value: 'o' },
      { op: 'replace', path: '/active/messages/1/text', value: 'y' },
    ]);
    expect(out.active.messages.map((m) => m.text)).toEqual(['Hello', 'y']);
    expect(doc.active.messages.map((m) => m.text)).toEqual(['Hel', 'x']);
  });

  it('does not mutate an op value that a later op of the same frame appends into', () => {
    const message = { id: 'm3', content: [{ type: 'text', text: 'Hi' }] };
    const ops: Op[] = [
      { op: 'add', path: '/active/messages/-', value: message },
      { op: 'append', path: '/active/messages/2/content/0/text', value: ' there' },
      { op: 'add', path: '/active/messages/2/content/-', value: { type: 'text', text: '!' } },
    ];
    const doc = makeDoc();
    const out = applyPatch(doc, ops) as unknown as { active: { messages: unknown[] } };
    expect(out.active.messages[2]).toEqual({
      id: 'm3',
      content: [
        { type: 'text', text: 'Hi there' },
        { type: 'text', text: '!' },
      ],
    });
    // The frame can be applied again (e.g. by another client sharing the parsed frame).
    expect(message).toEqual({ id: 'm3', content: [{ type: 'text', text: 'Hi' }] });
    expect(doc.active.messages).toHaveLength(2);
  });

  it('returns the same document for an empty frame', () => {
    const doc = makeDoc();
    expect(applyPatch(doc, [])).toBe(doc);
  });
});

describe('atomicity', () => {
  it('throws PatchError and leaves the caller\'s document unchanged when a later op fails', () => {
    const doc = makeDoc();
    const before = clone(doc);
    const ops: Op[] = [
      { op: 'append', path: '/active/messages/0/text', value: 'lo' },
      { op: 'add', path: '/tags/-', value: 'three' },
      { op: 'remove', path: '/chats/a' },
      { op: 'append', path: '/chats/b/missing', value: '!' },
    ];
    let thrown: unknown;
    try {
      applyPatch(doc, ops);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PatchError);
    expect((thrown as Error).name).toBe('PatchError');
    expect(doc).toEqual(before);
  });
});

describe('applyPatchInPlace', () => {
  it('mutates the document and returns it', () => {
    const doc = makeDoc();
    const chats = doc.chats;
    const out = applyPatchInPlace(doc, [
      { op: 'append', path: '/active/messages/0/text', value: 'lo' },
      { op: 'add', path: '/tags/-', value: 'three' },
      { op: 'remove', path: '/chats/b' },
    ]);
    expect(out).toBe(doc);
    expect(doc.chats).toBe(chats);
    expect(doc.active.messages[0]!.text).toBe('Hello');
    expect(doc.tags).toEqual(['one', 'two', 'three']);
    expect(Object.keys(doc.chats)).toEqual(['a']);
  });

  it('returns the new root when the root is replaced', () => {
    const out = applyPatchInPlace({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }]);
    expect(out).toEqual({ b: 2 });
  });

  it('throws PatchError on an op that cannot apply', () => {
    expect(() => applyPatchInPlace({ a: 1 }, [{ op: 'append', path: '/a', value: 'x' }])).toThrow(PatchError);
  });

  it('produces the same result as applyPatch', () => {
    // Fresh ops per call: applyPatchInPlace stores op values by reference (see the next test).
    const makeOps = (): Op[] => [
      { op: 'add', path: '/active/messages/-', value: { id: 'm3', text: '' } },
      { op: 'append', path: '/active/messages/2/text', value: 'abc' },
      { op: 'replace', path: '/chats/a~1x', value: 1 },
    ];
    const withSlash = () => ({ ...makeDoc(), chats: { ...makeDoc().chats, 'a/x': 0 } });
    expect(applyPatchInPlace(withSlash(), makeOps())).toEqual(applyPatch(withSlash(), makeOps()));
  });

  // Known bug, reported to the lead: an added value becomes part of the document by reference, so a
  // later append in place also rewrites the op that added it. A frame serialized after it was
  // applied (or kept as objects in a replay buffer) then carries the appended text twice.
  // When patch.ts is fixed this expected failure flips: turn it into a plain `it`.
  it('takes added values by reference, so the server serializes ops before applying them', () => {
    const value = { text: '' };
    const doc = applyPatchInPlace<Record<string, unknown>>({}, [
      { op: 'add', path: '/m', value },
      { op: 'append', path: '/m/text', value: 'abc' },
    ]);
    expect(doc.m).toBe(value);
    expect(value.text).toBe('abc');
  });
});
