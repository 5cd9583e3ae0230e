import { describe, expect, it } from 'vitest';
import { describeThrown, formatConsoleArgs, previewValue } from './format-console-args.ts';

const format = (...args: unknown[]) => formatConsoleArgs(args, 100, 300);

describe('formatConsoleArgs', () => {
  it('joins arguments with spaces, strings as they are and other values previewed', () => {
    expect(format('saved', 3, true, null, undefined, 10n, Symbol('s'))).toBe("saved 3 true null undefined 10n Symbol(s)");
    expect(format({ a: 1, b: 'x', c: [1, 2, { d: { e: 1 } }] })).toBe("{a: 1, b: 'x', c: [1, 2, {…}]}");
    expect(format(function load() {}, () => 1)).toBe('ƒ load() ƒ anonymous()');
  });

  it('substitutes format specifiers the way the console does, dropping %c styles', () => {
    expect(format('%s has %d items (%i%%), %f kg', 'cart', 3.7, '42px', 1.5)).toBe('cart has 3 items (42%), 1.5 kg');
    expect(format('%cBig', 'font-size: 20px', 'after')).toBe('Big after');
    expect(format('%o and %O', { a: 1 }, [1])).toBe('{a: 1} and [1]');
    expect(format('%d missing %s')).toBe('%d missing %s');
    expect(format('%d', { not: 'a number' })).toBe('NaN');
  });

  it('names class instances, errors, dates, maps and sets', () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
    }
    expect(format(new Point(1, 2))).toBe('Point {x: 1, y: 2}');
    expect(format(new Map([['k', 1]]), new Set([1, 2]))).toBe("Map(1) {'k' => 1} Set(2) {1, 2}");
    expect(format(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(format([new TypeError('bad')])).toBe('[TypeError: bad]');
    expect(format(new Uint8Array(1_000_000))).toBe('Uint8Array(1000000 bytes)');
    expect(format(/a+/g)).toBe('/a+/g');
  });

  it('shows an error at the top level with its stack', () => {
    const error = new Error('boom');
    expect(format(error)).toBe(error.stack!.slice(0, 100 - 1) + '…');
    expect(formatConsoleArgs([error], 10_000, 10_000)).toBe(error.stack);
  });

  it('never runs the page’s code: getters show as (...), toString is not called', () => {
    let ran = 0;
    const sneaky = {
      get secret() {
        ran++;
        return 'x';
      },
      toString() {
        ran++;
        return 'y';
      },
      valueOf() {
        ran++;
        return 1;
      },
    };
    expect(format(sneaky, '%s', sneaky)).toBe('{secret: (...), toString: ƒ toString(), valueOf: ƒ valueOf()} %s {secret: (...), toString: ƒ toString(), valueOf: ƒ valueOf()}');
    expect(format('%s %d', sneaky, sneaky)).toBe('{secret: (...), toString: ƒ toString(), valueOf: ƒ valueOf()} NaN');
    expect(ran).toBe(0);
  });

  it('bounds each argument, the whole message, and the entries of large objects', () => {
    const long = 'x'.repeat(500);
    expect(format(long)).toHaveLength(100);
    expect(formatConsoleArgs([long, long, long, long], 100, 250)).toHaveLength(250);
    const big = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const shown = format(big);
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(format(Array.from({ length: 1000 }, (_, i) => i))).toMatch(/^\[0, 1, 2, .*…/);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(format(cyclic)).toBe("{name: 'loop', self: {name: 'loop', self: {…}}}");
  });

  it('keeps the rest of a message when one argument cannot be read', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(format('before', proxy, 'after')).toBe('before (unreadable) after');
  });
});

describe('previewValue', () => {
  it('leaves strings unquoted at the top level and quotes them inside objects', () => {
    expect(previewValue('hi', 10)).toBe('hi');
    expect(previewValue(['hi'], 10)).toBe("['hi']");
  });
});

describe('describeThrown', () => {
  it('gives an error’s name, message and stack, and any other value’s preview', () => {
    const error = new RangeError('too far');
    expect(describeThrown(error, 100, 10_000)).toEqual({ message: 'RangeError: too far', stack: error.stack });
    expect(describeThrown('plain string', 100, 100)).toEqual({ message: 'plain string', stack: null });
    expect(describeThrown({ code: 42 }, 100, 100)).toEqual({ message: '{code: 42}', stack: null });
    expect(describeThrown(new Error('x'.repeat(50)), 20, 30).message).toHaveLength(20);
  });

  it('describes a value it cannot read instead of throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(describeThrown(proxy, 100, 100)).toEqual({ message: '(unreadable)', stack: null });
  });
});
