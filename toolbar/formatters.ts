const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Intl formatters, made once per locale and options: `toLocaleString` and friends build a new
 * one on every call (tens of µs each), which a list re-rendered per streamed delta cannot afford.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/** A count with the user's digit grouping ("1,920"). */
export function formatCount(n: number, locale?: string): string {
  const key = `n|${locale ?? ''}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale)));
  return f.format(n);
}

function startOfDay(time: number): number {
  const d = new Date(time);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** "14:05" in the user's locale. */
export function formatTime(time: number, locale?: string): string {
  return dateFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(time);
}

/** "Mar 3" in the user's locale. */
export function formatDay(time: number, locale?: string): string {
  return dateFormat(locale, { month: 'short', day: 'numeric' }).format(time);
}

/**
 * When a chat was last active, as short as a chat list shows it: the time today, "Yesterday", the
 * weekday within a week, the day and month this year, and the full date before that.
 *
 * @example formatChatDate(Date.now() - 60_000) // "14:02" (in the user's locale)
 */
export function formatChatDate(time: number, now = Date.now(), locale?: string): string {
  const days = Math.round((startOfDay(now) - startOfDay(time)) / DAY_MS);
  if (days <= 0) return formatTime(time, locale);
  if (days === 1) return 'Yesterday';
  if (days < 7) return dateFormat(locale, { weekday: 'long' }).format(time);
  const sameYear = new Date(time).getFullYear() === new Date(now).getFullYear();
  return sameYear ? formatDay(time, locale) : dateFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(time);
}

/** The full date and time, for a tooltip. */
export function formatFullDate(time: number, locale?: string): string {
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}
