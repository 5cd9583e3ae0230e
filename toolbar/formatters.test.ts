import { describe, expect, it } from 'vitest';
import { formatChatDate, formatCount, formatFullDate } from './formatters.ts';

// Wednesday 25 November 2026, 14:30 local time.
const NOW = new Date(2026, 10, 25, 14, 30).getTime();
const at = (y: number, m: number, d: number, h = 9, min = 5) => new Date(y, m, d, h, min).getTime();

describe('formatChatDate', () => {
  it('shows the time for a chat active today', () => {
    expect(formatChatDate(at(2026, 10, 25, 9, 5), NOW, 'en-GB')).toBe('09:05');
  });
  it('says Yesterday for the day before, even a few minutes before midnight', () => {
    expect(formatChatDate(at(2026, 10, 24, 23, 58), NOW, 'en-US')).toBe('Yesterday');
    expect(formatChatDate(at(2026, 10, 24, 0, 1), NOW, 'en-US')).toBe('Yesterday');
  });
  it('names the weekday within a week', () => {
    expect(formatChatDate(at(2026, 10, 20), NOW, 'en-US')).toBe('Friday');
  });
  it('gives day and month this year, and the year before that', () => {
    expect(formatChatDate(at(2026, 2, 3), NOW, 'en-US')).toBe('Mar 3');
    expect(formatChatDate(at(2025, 2, 3), NOW, 'en-US')).toBe('Mar 3, 2025');
  });
  it('treats a clock a little ahead of this one as today', () => {
    expect(formatChatDate(NOW + 60_000, NOW, 'en-GB')).toBe('14:31');
  });
});

describe('formatCount and formatFullDate', () => {
  it('group digits as the locale does', () => {
    expect(formatCount(1920, 'en-US')).toBe('1,920');
    expect(formatCount(1920, 'de-DE')).toBe('1.920');
  });
  it('gives the full date and time for a tooltip', () => {
    // ICU puts a narrow no-break space before PM on some Node versions.
    expect(formatFullDate(NOW, 'en-US')).toMatch(/^Nov 25, 2026, 2:30\sPM$/);
  });
});
