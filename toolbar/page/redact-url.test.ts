import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.ts';

const BASE = 'http://localhost:5173/app/page';

describe('redactUrl', () => {
  it('makes relative URLs absolute and keeps harmless parts as they are', () => {
    expect(redactUrl('/api/orders?page=2&sort=desc', BASE, 500)).toBe('http://localhost:5173/api/orders?page=2&sort=desc');
    expect(redactUrl('items.json', BASE, 500)).toBe('http://localhost:5173/app/items.json');
    expect(redactUrl('https://api.example.com/v1/users/42?q=ada%20lovelace', BASE, 500)).toBe('https://api.example.com/v1/users/42?q=ada%20lovelace');
  });

  it('removes token-like query values, whatever their case or prefix', () => {
    expect(redactUrl('/api?q=shoes&access_token=abc&API_KEY=k&apiKey=k2&password=p&X-Amz-Signature=s&code=123&sid=9', BASE, 500)).toBe(
      'http://localhost:5173/api?q=shoes&access_token=[redacted]&API_KEY=[redacted]&apiKey=[redacted]&password=[redacted]&X-Amz-Signature=[redacted]&code=[redacted]&sid=[redacted]',
    );
    expect(redactUrl('/ws?token=s3cr3t', BASE, 500)).toBe('http://localhost:5173/ws?token=[redacted]');
  });

  it('removes values that look like secrets under any name, and such path segments', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    expect(redactUrl(`/api?x=${jwt}&id=42`, BASE, 500)).toBe('http://localhost:5173/api?x=[redacted]&id=42');
    expect(redactUrl('/reset/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08/confirm', BASE, 500)).toBe(
      'http://localhost:5173/reset/[redacted]/confirm',
    );
    // Long words are not secrets.
    expect(redactUrl('/docs/getting-started-with-the-agentbar-toolbar', BASE, 500)).toBe('http://localhost:5173/docs/getting-started-with-the-agentbar-toolbar');
  });

  it('drops credentials and the fragment, which never leave the browser', () => {
    expect(redactUrl('https://ada:hunter2@example.com/a#access_token=xyz', BASE, 500)).toBe('https://example.com/a');
  });

  it('shortens data and blob URLs, cuts long ones and keeps only the path of an unparsable one', () => {
    expect(redactUrl('data:image/png;base64,AAAA', BASE, 500)).toBe('data:…');
    expect(redactUrl(`/a?q=${'x'.repeat(2000)}`, BASE, 100)).toHaveLength(100);
    expect(redactUrl('http://[bad/path?token=x', undefined, 100)).toBe('http://[bad/path?[redacted]');
  });
});
