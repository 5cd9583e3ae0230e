import { describe, expect, it } from 'vitest';
import { stripTerminalControls } from './terminal-text.ts';

describe('stripTerminalControls', () => {
  it('keeps text, newlines and tabs as they are', () => {
    expect(stripTerminalControls('Hello, **world**\n\tcode — “quoted” 🙂')).toBe('Hello, **world**\n\tcode — “quoted” 🙂');
  });

  it('drops escape, carriage return, bell, DEL and C1 controls, so no sequence reaches the terminal', () => {
    expect(stripTerminalControls('a\u001b[2Jb')).toBe('a[2Jb');
    expect(stripTerminalControls('\u001b]0;owned\u0007title')).toBe(']0;ownedtitle');
    expect(stripTerminalControls('line\roverwritten\u007f\u009b31m')).toBe('lineoverwritten31m');
  });
});
