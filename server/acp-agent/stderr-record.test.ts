import { describe, expect, it } from 'vitest';
import { StderrRecord } from './stderr-record.ts';

describe('StderrRecord', () => {
  it('keeps the first error line however much output follows it, in bounded memory', () => {
    const record = new StderrRecord();
    record.add('starting\nError: error loading config: /c/config.toml:2:23: invalid basic string\n\nStack backtrace:\n');
    for (let i = 0; i < 500; i++) record.add(`  ${i}: frame_${i}\n             at ./src/frame_${i}.rs:1:1\n`);
    expect(record.summarize()).toBe('Error: error loading config: /c/config.toml:2:23: invalid basic string');
    expect(record.text.length).toBeLessThan(6_000);
  });

  it('finds an error line written in several chunks, and one not yet ended', () => {
    const record = new StderrRecord();
    record.add('Err');
    record.add('or: split in two\nmore\n');
    expect(record.summarize()).toBe('Error: split in two | more');
    const unended = new StderrRecord();
    unended.add('x\n'.repeat(3000) + 'fatal: no newline');
    expect(unended.summarize()).toBe('fatal: no newline');
  });

  it('forgets an error line long past, so that a later one explains the failure', () => {
    const record = new StderrRecord();
    record.add('error: an old hiccup\n');
    for (let i = 0; i < 100; i++) record.add(`${'log line '.repeat(100)}\n`);
    record.add('Error: the real cause\n');
    expect(record.summarize()).toBe('Error: the real cause');
    record.clear();
    expect(record.summarize()).toBe('');
  });
});
