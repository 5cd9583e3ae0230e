import { RequestError } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { describeAcpError } from './describe-acp-error.ts';

describe('describeAcpError', () => {
  it('leads with the reason an agent puts under a bare "Internal error": data.details, data.message or data as text', () => {
    expect(describeAcpError(new RequestError(-32603, 'Internal error', { details: 'Query closed before response received' }))).toBe('Query closed before response received');
    // As Codex answers when its model provider fails.
    expect(describeAcpError(new RequestError(-32603, 'Internal error', { message: 'stream disconnected before completion', codex_error_info: 'response_stream_disconnected' }))).toBe('stream disconnected before completion');
    expect(describeAcpError(new RequestError(-32603, 'Internal error', 'model not found'))).toBe('model not found');
  });

  it('adds the reason to a message that says more than "Internal error"', () => {
    expect(describeAcpError(new RequestError(-32000, 'Failed', { message: 'quota exceeded' }))).toBe('Failed: quota exceeded');
  });

  it('shows other data as compact JSON, on one line and cut short', () => {
    expect(describeAcpError(new RequestError(-32602, 'Invalid params', { modeId: 'x' }))).toBe('Invalid params: {"modeId":"x"}');
    const long = describeAcpError(new RequestError(-32603, 'Internal error', { details: `first line\n${'x'.repeat(1000)}` }));
    expect(long).toMatch(/^first line x+…$/);
    expect(long.length).toBe(300);
  });

  it('says a message once when its data repeats it, and just the message when data says nothing', () => {
    expect(describeAcpError(new RequestError(-32603, 'Internal error: boom', { details: 'boom' }))).toBe('boom');
    expect(describeAcpError(new RequestError(-32603, 'Internal error', {}))).toBe('Internal error');
    expect(describeAcpError(new RequestError(-32603, 'Internal error', { details: '  ' }))).toBe('Internal error');
    expect(describeAcpError(new Error('plain'))).toBe('plain');
    expect(describeAcpError('a string')).toBe('a string');
  });

  it("reads a provider's raw JSON error as its message and status: as the message, inside it, nested, or as the data", () => {
    const body = { error: { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' } };
    const readable = 'API key not valid. Please pass a valid API key. (401 UNAUTHENTICATED)';
    // Gemini CLI answers with the API's body as its message…
    expect(describeAcpError(new RequestError(401, JSON.stringify(body)))).toBe(readable);
    // …inside a sentence, or as a list of one…
    expect(describeAcpError(new RequestError(500, `got status: 401 Unauthorized. ${JSON.stringify(body)}`))).toBe(`got status: 401 Unauthorized. ${readable}`);
    expect(describeAcpError(new RequestError(500, `[API Error: [${JSON.stringify(body)}]]`))).toBe(`[API Error: ${readable}]`);
    // …or as a JSON string in the message of another error.
    const nested = { error: { message: JSON.stringify(body, null, 2), code: 401, status: 'Unauthorized' } };
    expect(describeAcpError(new RequestError(401, JSON.stringify(nested)))).toBe(readable);
    // ACP's SDK puts a thrown Error's JSON message, parsed, in an "Internal error"'s data.
    expect(describeAcpError(new RequestError(-32603, 'Internal error', body))).toBe(readable);
    // Other providers' shapes: OpenAI's code, Anthropic's type.
    expect(describeAcpError(new RequestError(-32603, 'Internal error', { message: 'unexpected status 401 Unauthorized: {"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}' }))).toBe(
      'unexpected status 401 Unauthorized: Incorrect API key provided (invalid_api_key)',
    );
    expect(describeAcpError(new Error('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'))).toBe('invalid x-api-key (authentication_error)');
  });

  it('leads with the reason an agent put after "Internal error:" in the message itself', () => {
    // Claude Code's adapter (claude-agent-acp 0.23) words a refused API key so.
    expect(describeAcpError(new RequestError(-32603, 'Internal error: Invalid API key · Fix external API key'))).toBe('Invalid API key · Fix external API key');
    expect(describeAcpError(new RequestError(-32603, 'Internal error:'))).toBe('Internal error:');
  });

  it('leaves JSON that is no error, or braces that are no JSON, as they are', () => {
    expect(describeAcpError(new Error('Expected {"a":1} here'))).toBe('Expected {"a":1} here');
    expect(describeAcpError(new Error('unbalanced { brace'))).toBe('unbalanced { brace');
  });
});
