import { describe, expect, it } from 'vitest';
import { createSignInLinks } from './sign-in-links.ts';

describe('createSignInLinks', () => {
  it('opens once per code, and codes are unguessable and distinct', () => {
    const links = createSignInLinks();
    const a = links.issue().code;
    const b = links.issue().code;
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[\w-]{32}$/);
    expect(links.redeem(a)).toBe(true);
    expect(links.redeem(a)).toBe(false);
    expect(links.redeem(b)).toBe(true);
  });

  it('says whether a code is live without using it up', () => {
    let now = 0;
    const links = createSignInLinks({ ttlMs: 1000, now: () => now });
    const { code } = links.issue();
    expect(links.isLive(code)).toBe(true);
    expect(links.isLive(code)).toBe(true);
    expect(links.isLive('made-up')).toBe(false);
    now = 1000;
    expect(links.isLive(code)).toBe(false);
    const fresh = links.issue().code;
    expect(links.redeem(fresh)).toBe(true);
    expect(links.isLive(fresh)).toBe(false);
  });

  it('refuses a code past its lifetime', () => {
    let now = 0;
    const links = createSignInLinks({ ttlMs: 1000, now: () => now });
    const { code, expiresAt } = links.issue();
    expect(expiresAt).toBe(1000);
    now = 1000;
    expect(links.redeem(code)).toBe(false);
  });

  it('keeps at most `max` unused codes, forgetting the oldest', () => {
    const links = createSignInLinks({ max: 3 });
    const codes = Array.from({ length: 5 }, () => links.issue().code);
    expect(codes.map((c) => links.redeem(c))).toEqual([false, false, true, true, true]);
  });
});
