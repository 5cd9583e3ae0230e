import { describe, expect, it } from 'vitest';
import { checkAccess, describeRefusal, isAllowedHost, isAllowedOrigin, isValidToken, normalizeOrigin, readToken } from './security.ts';

const PORT = 4477;

describe('isAllowedHost', () => {
  it.each(['localhost', '127.0.0.1', '[::1]'])('accepts %s without a port', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(true);
  });

  it.each(['localhost:4477', '127.0.0.1:4477', '[::1]:4477'])('accepts %s with the server port', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(true);
  });

  it.each(['LOCALHOST:4477', 'LocalHost', 'LOCALHOST'])('ignores case (%s)', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(true);
  });

  it.each(['localhost:4478', '127.0.0.1:80', '[::1]:1'])('refuses another port (%s)', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(false);
  });

  it.each([
    'localhost.evil.com',
    'localhost.evil.com:4477',
    '127.0.0.1.nip.io',
    '127.0.0.1.nip.io:4477',
    'evil.com',
    'evil.com:4477',
    '192.168.1.10:4477',
    '0.0.0.0:4477',
    '::1',
    '[::2]:4477',
    'localhost:',
    'localhost:4477:4477',
    'localhost:abc',
    'user@localhost:4477',
  ])('refuses a foreign or malformed host (%s)', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(false);
  });

  it.each([undefined, null, ''])('refuses a missing host (%s)', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(false);
  });

  it('follows the port the server actually listens on', () => {
    expect(isAllowedHost('localhost:51234', 51234)).toBe(true);
    expect(isAllowedHost('localhost:4477', 51234)).toBe(false);
  });
});

describe('isAllowedOrigin', () => {
  it('lets a request without an Origin through (non-browser clients)', () => {
    expect(isAllowedOrigin(undefined, [])).toBe(true);
    expect(isAllowedOrigin(null, [])).toBe(true);
  });

  it.each(['null', 'NULL', ' null '])('never accepts the opaque origin %j', (origin) => {
    expect(isAllowedOrigin(origin, [])).toBe(false);
    expect(isAllowedOrigin(origin, ['null'])).toBe(false);
  });

  it.each([
    'http://localhost',
    'http://localhost:5173',
    'http://127.0.0.1:3000',
    'http://[::1]:8080',
    'http://[::1]',
    'HTTP://LOCALHOST:4477',
  ])('accepts the loopback http origin %s on any port', (origin) => {
    expect(isAllowedOrigin(origin, [])).toBe(true);
  });

  it('refuses https://localhost unless it was allowed', () => {
    expect(isAllowedOrigin('https://localhost:5173', [])).toBe(false);
    expect(isAllowedOrigin('https://localhost:5173', ['https://localhost:5173'])).toBe(true);
  });

  it.each(['http://localhost.evil.com', 'http://127.0.0.1.nip.io:3000', 'https://evil.com', 'http://example.com'])(
    'refuses the foreign origin %s',
    (origin) => {
      expect(isAllowedOrigin(origin, [])).toBe(false);
    },
  );

  it('accepts an extra origin matched exactly after normalization', () => {
    const extra = ['HTTPS://App.Example.com:8443/'];
    expect(isAllowedOrigin('https://app.example.com:8443', extra)).toBe(true);
    expect(isAllowedOrigin('https://app.example.com', extra)).toBe(false);
    expect(isAllowedOrigin('http://app.example.com:8443', extra)).toBe(false);
    expect(isAllowedOrigin('https://evil.app.example.com:8443', extra)).toBe(false);
  });

  it('treats the default port as the same origin', () => {
    expect(isAllowedOrigin('https://example.com', ['https://example.com:443'])).toBe(true);
  });

  it.each(['', 'garbage', 'localhost:3000', '//localhost', 'file:///etc/passwd', 'data:text/html,hi'])(
    'refuses the malformed origin %j',
    (origin) => {
      expect(isAllowedOrigin(origin, ['https://example.com'])).toBe(false);
    },
  );

  it('ignores a malformed entry in the extra list instead of matching everything', () => {
    expect(isAllowedOrigin('https://evil.com', ['not a url'])).toBe(false);
  });
});

describe('normalizeOrigin', () => {
  it('lower-cases and drops the path and trailing slash', () => {
    expect(normalizeOrigin('HTTPS://Example.COM:8443/some/path?q=1')).toBe('https://example.com:8443');
  });

  it('returns null for opaque or unparsable origins', () => {
    expect(normalizeOrigin('null')).toBeNull();
    expect(normalizeOrigin('file:///tmp/x')).toBeNull();
    expect(normalizeOrigin('nope')).toBeNull();
  });
});

describe('isValidToken', () => {
  const token = 'a'.repeat(10) + 'secret-token-value';

  it('accepts the exact token', () => {
    expect(isValidToken(token, token)).toBe(true);
  });

  it('refuses a token that differs in one character', () => {
    expect(isValidToken(token.slice(0, -1) + 'X', token)).toBe(false);
  });

  it('refuses tokens of another length without throwing', () => {
    expect(isValidToken(token + 'x', token)).toBe(false);
    expect(isValidToken(token.slice(1), token)).toBe(false);
    expect(isValidToken('x', token)).toBe(false);
  });

  it('refuses an empty or missing token', () => {
    expect(isValidToken('', token)).toBe(false);
    expect(isValidToken(undefined, token)).toBe(false);
    expect(isValidToken(null, token)).toBe(false);
  });

  it('is case-sensitive', () => {
    expect(isValidToken(token.toUpperCase(), token)).toBe(false);
  });
});

describe('readToken', () => {
  it('reads ?token=', () => {
    expect(readToken(new URL('http://localhost/agents?token=abc'), undefined)).toBe('abc');
  });

  it('reads Authorization: Bearer, whatever the case of the scheme', () => {
    const url = new URL('http://localhost/agents');
    expect(readToken(url, 'Bearer abc')).toBe('abc');
    expect(readToken(url, 'bearer   abc')).toBe('abc');
  });

  it('prefers the query over the header', () => {
    expect(readToken(new URL('http://localhost/agents?token=q'), 'Bearer h')).toBe('q');
  });

  it('returns undefined when neither is given', () => {
    const url = new URL('http://localhost/agents');
    expect(readToken(url, undefined)).toBeUndefined();
    expect(readToken(url, null)).toBeUndefined();
    expect(readToken(url, '')).toBeUndefined();
    expect(readToken(new URL('http://localhost/agents?token='), undefined)).toBeUndefined();
  });

  it('ignores other authorization schemes', () => {
    expect(readToken(new URL('http://localhost/agents'), 'Basic YWxhZGRpbjpvcGVu')).toBeUndefined();
    expect(readToken(new URL('http://localhost/agents'), 'Bearer')).toBeUndefined();
  });
});

describe('checkAccess', () => {
  const policy = { port: () => PORT, token: 'the-token-0123456789', allowOrigins: [] };
  const url = (q = '') => new URL(`http://localhost:${PORT}/ws${q}`);

  it('lets a well-formed request through', () => {
    expect(checkAccess(policy, { host: 'localhost:4477' }, url('?token=the-token-0123456789'), true)).toBeNull();
  });

  it('names the reason: the Host first, then the Origin, then the token', () => {
    expect(checkAccess(policy, { host: 'evil.com', origin: 'null' }, url(), true)).toBe('Host not allowed');
    expect(checkAccess(policy, { host: 'localhost', origin: 'null' }, url(), true)).toBe('Origin not allowed');
    expect(checkAccess(policy, { host: 'localhost' }, url('?token=wrong'), true)).toBe('Missing or wrong token');
  });

  it('needs no token on a public route', () => {
    expect(checkAccess(policy, { host: 'localhost' }, url(), false)).toBeNull();
  });
});

describe('describeRefusal', () => {
  it('tells the developer how to let their own https page in', () => {
    expect(describeRefusal('Origin not allowed', { origin: 'https://LOCALHOST:5173' })).toBe(
      'Origin not allowed (origin https://LOCALHOST:5173). If that page is yours, start the server with --allow-origin https://localhost:5173 (allowOrigins in startServer).',
    );
  });

  it('says a page without an origin is never allowed, rather than suggesting --allow-origin null', () => {
    const message = describeRefusal('Origin not allowed', { origin: 'null' });
    expect(message).toMatch(/^Origin not allowed \(origin null\)\. A page without an origin of its own \(a file:\/\/ page/);
    expect(message).not.toContain('--allow-origin');
  });

  it('names the refused Host and why only loopback names pass', () => {
    expect(describeRefusal('Host not allowed', { host: 'rebind.example:4477', origin: 'http://rebind.example:4477' })).toMatch(
      /^Host not allowed \(host rebind\.example:4477\)\. Open the page with localhost, 127\.0\.0\.1 or \[::1\] .*DNS rebinding\.$/,
    );
  });

  it('points a refused token at reloading the page, and clips what a client sent', () => {
    expect(describeRefusal('Missing or wrong token', {})).toBe('Missing or wrong token (origin none). A toolbar with an old token gets the current one when its page is reloaded.');
    expect(describeRefusal('Missing or wrong token', { origin: `http://${'a'.repeat(300)}.test` }).length).toBeLessThan(320);
  });
});
