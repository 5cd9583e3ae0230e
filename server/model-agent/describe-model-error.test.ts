import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeModelError, readErrorBodyMessage } from './describe-model-error.ts';

describe('readErrorBodyMessage', () => {
  it('reads the three shapes providers answer errors in', () => {
    expect(readErrorBodyMessage('{"error":{"message":"Incorrect API key provided."}}')).toBe('Incorrect API key provided.');
    expect(readErrorBodyMessage('{"error":"model not found"}')).toBe('model not found');
    expect(readErrorBodyMessage('{"message":"Bad gateway"}')).toBe('Bad gateway');
  });

  it('reads nothing from a body that is not JSON or holds no text', () => {
    for (const body of ['', '404 page not found', 'null', '{"error":{"message":42}}', '{"error":""}', '[]']) expect(readErrorBodyMessage(body)).toBeNull();
  });
});

describe('describeModelError', () => {
  it("falls back to the error's own message when the body's message is not text", () => {
    const error = new APICallError({ message: 'Bad Request', url: 'http://127.0.0.1:1/v1/chat/completions', requestBodyValues: {}, statusCode: 400, responseBody: '{"error":{"message":{"nested":true}}}' });
    expect(describeModelError(error, 'http://127.0.0.1:1/v1')).toBe('The model provider answered 400: Bad Request');
  });
});
