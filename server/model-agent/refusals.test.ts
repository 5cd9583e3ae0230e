import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { isContentRefusal, isMediaRefusal, isToolsRefusal } from './refusals.ts';

function apiError(statusCode: number, message: string): APICallError {
  return new APICallError({ message: 'Bad Request', url: 'http://127.0.0.1:11434/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: JSON.stringify({ error: { message } }) });
}

describe('isToolsRefusal', () => {
  it.each([
    [400, 'registry.ollama.ai/library/deepseek-r1:latest does not support tools'],
    [500, 'tools param requires --jinja flag'],
    [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
    [400, 'This model does not support function calling'],
  ])('reads a %i saying %j as a refusal of the tools', (status, message) => {
    expect(isToolsRefusal(apiError(status, message))).toBe(true);
    expect(isToolsRefusal(new RetryError({ message: 'retries', reason: 'maxRetriesExceeded', errors: [apiError(status, message)] }))).toBe(true);
  });

  it('reads other errors as what they are', () => {
    expect(isToolsRefusal(apiError(400, 'Invalid value for temperature'))).toBe(false);
    expect(isToolsRefusal(apiError(401, 'does not support tools'))).toBe(false);
    expect(isToolsRefusal(apiError(404, 'model "x" not found, try pulling it first'))).toBe(false);
    expect(isToolsRefusal(new Error('does not support tools'))).toBe(false);
  });
});

describe('isMediaRefusal', () => {
  it.each([
    [500, 'this model is missing data required for image input'],
    [400, 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj'],
    [400, 'Model does not support images. Please use a model that does.'],
    [400, 'Qwen/Qwen2.5-7B-Instruct is not a multimodal model'],
    [400, 'Invalid content type. image_url is only supported by certain models.'],
  ])('reads a %i saying %j as a refusal of the images', (status, message) => {
    expect(isMediaRefusal(apiError(status, message))).toBe(true);
    expect(isToolsRefusal(apiError(status, message))).toBe(false);
  });

  it('reads other errors as what they are', () => {
    expect(isMediaRefusal(apiError(400, 'registry.ollama.ai/library/deepseek-r1:latest does not support tools'))).toBe(false);
    expect(isMediaRefusal(apiError(413, 'Request Entity Too Large'))).toBe(false);
    expect(isMediaRefusal(apiError(401, 'does not support images'))).toBe(false);
    expect(isMediaRefusal(new Error('this model is missing data required for image input'))).toBe(false);
  });
});

describe('isContentRefusal', () => {
  it.each([
    [400, 'invalid message format'],
    [400, 'invalid image input'],
    [400, 'Invalid content type. image_url is only supported by certain models.'],
  ])('reads a %i saying %j as a refusal of a kind of content', (status, message) => {
    expect(isContentRefusal(apiError(status, message))).toBe(true);
  });

  it('reads other errors as what they are', () => {
    expect(isContentRefusal(apiError(400, 'this model is missing data required for image input'))).toBe(false);
    expect(isContentRefusal(apiError(401, 'invalid message format'))).toBe(false);
    expect(isContentRefusal(new Error('invalid image input'))).toBe(false);
  });
});
