import { RequestError } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { describeAcpError } from './describe-acp-error.ts';

describe('describeAcpError', () => {
  it("adds the reason an SDK agent puts in data.details to its bare \"Internal error\"", () => {
    expect(describeAcpError(new RequestError(-32603, 'Internal error', { details: 'Query closed before response received' }))).toBe('Internal error: Query closed before response received');
  });

  it('reads the reason from data given as text, or as data.message', () => {
    expect(describeAcpError(new RequestError(-32603, 'Internal error', 'model not found'))).toBe('Internal error: model not found');
    expect(describeAcpError(new RequestError(-32000, 'Failed', { message: 'quota exceeded' }))).toBe('Failed: quota exceeded');
  });

  it('shows other data as compact JSON, on one line and cut short', () => {
    expect(describeAcpError(new RequestError(-32602, 'Invalid params', { modeId: 'x' }))).toBe('Invalid params: {"modeId":"x"}');
    const long = describeAcpError(new RequestError(-32603, 'Internal error', { details: `first line\n${'x'.repeat(1000)}` }));
    expect(long).toMatch(/^Internal error: first line x+…$/);
    expect(long.length).toBe('Internal error: '.length + 300);
  });

  it('says a message once when its data repeats it, and just the message when data says nothing', () => {
    expect(describeAcpError(new RequestError(-32603, 'Internal error: boom', { details: 'boom' }))).toBe('Internal error: boom');
    expect(describeAcpError(new RequestError(-32603, 'Internal error', {}))).toBe('Internal error');
    expect(describeAcpError(new RequestError(-32603, 'Internal error', { details: '  ' }))).toBe('Internal error');
    expect(describeAcpError(new Error('plain'))).toBe('plain');
    expect(describeAcpError('a string')).toBe('a string');
  });
});
