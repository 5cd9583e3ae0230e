import { describe, expect, it } from 'vitest';
import { buildSocketUrl, resolveConfig } from './config.ts';

describe('resolveConfig', () => {
  it('reads window.__AGENTBAR__ first', () => {
    const result = resolveConfig({
      global: { url: 'ws://127.0.0.1:4477/ws', token: 'tok' },
      script: { url: 'ws://other/ws', token: 'other' },
    });
    expect(result).toEqual({ ok: true, config: { url: 'ws://127.0.0.1:4477/ws', token: 'tok' } });
  });

  it('falls back to the script tag attributes', () => {
    const result = resolveConfig({ global: undefined, script: { url: 'ws://localhost:9000/ws', token: 't2' } });
    expect(result).toEqual({ ok: true, config: { url: 'ws://localhost:9000/ws', token: 't2' } });
  });

  it('turns an http origin into its /ws socket URL', () => {
    expect(resolveConfig({ global: { url: 'http://127.0.0.1:4477', token: 't' }, script: null })).toEqual({
      ok: true,
      config: { url: 'ws://127.0.0.1:4477/ws', token: 't' },
    });
    expect(resolveConfig({ global: { url: 'https://dev.local/', token: 't' }, script: null })).toMatchObject({
      config: { url: 'wss://dev.local/ws' },
    });
  });

  it('drops a token already in the URL: the configured token is the one sent', () => {
    const result = resolveConfig({ global: { url: 'ws://127.0.0.1:1/ws?token=old', token: 'new' }, script: null });
    expect(result.ok && buildSocketUrl(result.config)).toBe('ws://127.0.0.1:1/ws?token=new');
  });

  it.each([
    [{ global: undefined, script: null }, /No server URL/],
    [{ global: { url: 'ws://x/ws' }, script: null }, /No token/],
    [{ global: { url: 'ws://x/ws', token: '  ' }, script: null }, /No token/],
    [{ global: { url: 'javascript:alert(1)', token: 't' }, script: null }, /Not a ws\(s\) or http\(s\) URL/],
    [{ global: { url: 'not a url', token: 't' }, script: null }, /Not a ws/],
    [{ global: 'string', script: { url: null, token: null } }, /No server URL/],
  ])('explains a bad config %#', (sources, error) => {
    const result = resolveConfig(sources);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});

describe('buildSocketUrl', () => {
  it('encodes the token as a query parameter', () => {
    expect(buildSocketUrl({ url: 'ws://127.0.0.1:4477/ws', token: 'a+b/c=' })).toBe('ws://127.0.0.1:4477/ws?token=a%2Bb%2Fc%3D');
  });
});
