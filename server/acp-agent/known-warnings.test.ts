import { describe, expect, it } from 'vitest';
import { readWarningChunk } from './known-warnings.ts';

describe('readWarningChunk', () => {
  it("reads Codex's model-metadata warning as a notice: its first sentence the title, the rest its description", () => {
    expect(readWarningChunk('Model metadata for `gpt-5-local` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.')).toEqual({
      severity: 'warning',
      title: 'Model metadata for `gpt-5-local` not found',
      description: 'Defaulting to fallback metadata; this can degrade performance and cause issues.',
    });
    expect(readWarningChunk('Warning: Model metadata for gpt-x not found.')).toEqual({ severity: 'warning', title: 'Model metadata for gpt-x not found' });
  });

  it('keeps the reason of the WebSockets fallback and leaves out the raw bytes after it, as they are or escaped', () => {
    const fallback = { severity: 'warning', title: 'Falling back from WebSockets to HTTPS transport', description: 'HTTP error: 200 OK' };
    expect(readWarningChunk('Falling back from WebSockets to HTTPS transport. HTTP error: 200 OK\r\n\r\n1c\r\ndata: {"type":"response.created"}\r\n0\r\n\r\n')).toEqual(fallback);
    expect(readWarningChunk('Falling back from WebSockets to HTTPS transport. HTTP error: 200 OK\\r\\n1c\\r\\ndata: {}')).toEqual(fallback);
    expect(readWarningChunk('Falling back from WebSockets to HTTPS transport.')).toEqual({ severity: 'warning', title: 'Falling back from WebSockets to HTTPS transport' });
  });

  it('leaves any other text to the answer', () => {
    expect(readWarningChunk('Hello')).toBeNull();
    expect(readWarningChunk('The model metadata for this repo is in models.json.')).toBeNull();
    expect(readWarningChunk('')).toBeNull();
  });
});
