const DAY_MS = 24 * 60 * 60 * 1000;

function startOfDay(time: number): number {
  const d = new Date(time);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * When a chat was last active, as short as a chat list shows it: the time today, "Yesterday", the
 * weekday within a week, the day and month this year, and the full date before that.
 *
 * @example formatChatDate(Date.now() - 60_000) // "14:02" (in the user's locale)
 */
export function formatChatDate(time: number, now = Date.now(), locale?: string): string {
  const days = Math.round((startOfDay(now) - startOfDay(time)) / DAY_MS);
  if (days <= 0) return new Date(time).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  if (days === 1) return 'Yesterday';
  if (days < 7) return new Date(time).toLocaleDateString(locale, { weekday: 'long' });
  const sameYear = new Date(time).getFullYear() === new Date(now).getFullYear();
  return new Date(time).toLocaleDateString(locale, sameYear ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The full date and time, for a tooltip. */
export function formatFullDate(time: number, locale?: string): string {
  return new Date(time).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
