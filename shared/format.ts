/** Sizes, durations and lists as the toolbar, the terminal and replies show them, so all say the same. */
import type { ChatInfo } from './schemas.ts';

/**
 * `1.5 MB`-style sizes for messages.
 *
 * @example formatBytes(2048) // '2.0 KB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * How long an agent thought: whole seconds (at least 1), minutes past 60.
 *
 * @example formatThinkingTime(83_000) // '1 min 23 s'
 */
export function formatThinkingTime(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
}

/**
 * `2026-11-30 07:22` in the local time zone: what a person compares with their own clock.
 *
 * @example formatLocalDateTime(Date.parse('2026-11-30T07:22:00')) // '2026-11-30 07:22'
 */
export function formatLocalDateTime(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * Items as a sentence lists them.
 *
 * @example formatList(['a.zip', 'b.bin', 'c.woff2']) // 'a.zip, b.bin and c.woff2'
 */
export function formatList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/**
 * Token counts as a glance reads them.
 *
 * @example formatTokens(41_250) // '41k'
 * @example formatTokens(1_000_000) // '1M'
 */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${Math.round(tokens / 1000)}k`;
  return `${Number((tokens / 1_000_000).toFixed(1))}M`;
}

/**
 * A session's cost: an ISO 4217 code as money ($0.42), any other unit after the amount.
 *
 * @example formatCost({ amount: 0.4213, currency: 'USD' }) // '$0.42'
 * @example formatCost({ amount: 12, currency: 'credits' }) // '12 credits'
 */
export function formatCost(cost: { amount: number; currency: string }): string {
  if (/^[A-Z]{3}$/.test(cost.currency)) {
    try {
      const money = new Intl.NumberFormat('en', { style: 'currency', currency: cost.currency });
      // Less than a cent reads as such, not as $0.00.
      const cent = 10 ** -(money.resolvedOptions().maximumFractionDigits ?? 2);
      return cost.amount > 0 && cost.amount < cent ? `<${money.format(cent)}` : money.format(cost.amount);
    } catch {
      // a code Intl does not take: as a unit below
    }
  }
  return `${Number(cost.amount.toFixed(2))} ${cost.currency}`;
}

/**
 * What a chat has cost, from each agent's last report (each one that agent's total so far), summed
 * by currency in the order first seen; empty when no agent said.
 *
 * @example sumChatCosts({ usage: { 'a/x': { used: 1, size: 9, cost: { amount: 0.4, currency: 'USD' } } } }) // [{ amount: 0.4, currency: 'USD' }]
 */
export function sumChatCosts(chat: Pick<ChatInfo, 'usage'>): { amount: number; currency: string }[] {
  const byCurrency = new Map<string, number>();
  for (const usage of Object.values(chat.usage ?? {})) {
    if (usage.cost) byCurrency.set(usage.cost.currency, (byCurrency.get(usage.cost.currency) ?? 0) + usage.cost.amount);
  }
  return [...byCurrency].map(([currency, amount]) => ({ amount, currency }));
}

/**
 * What a chat has cost, for people: `$0.42`, `$0.42 + 12 credits`; null when no agent said.
 *
 * @example describeChatCost({ usage: {} }) // null
 */
export function describeChatCost(chat: Pick<ChatInfo, 'usage'>): string | null {
  const costs = sumChatCosts(chat);
  return costs.length ? costs.map(formatCost).join(' + ') : null;
}

/**
 * How full a context window is, whole percent (a sliver shows as 1, more than the window as 100).
 *
 * @example contextPercent({ used: 150_000, size: 200_000 }) // 75
 */
export function contextPercent(usage: { used: number; size: number }): number {
  if (usage.used <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((usage.used / usage.size) * 100)));
}

/**
 * A context usage in words, for a tooltip, a screen reader or the terminal.
 *
 * @example describeUsage({ used: 150_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } })
 * // '150,000 of 200,000 tokens of context used (75%); the session has cost $0.42'
 */
export function describeUsage(usage: { used: number; size: number; cost?: { amount: number; currency: string } | undefined }): string {
  const counts = `${usage.used.toLocaleString('en')} of ${usage.size.toLocaleString('en')} tokens of context used (${contextPercent(usage)}%)`;
  return usage.cost ? `${counts}; the session has cost ${formatCost(usage.cost)}` : counts;
}

/**
 * A recorded answer to an approval as a phrase after "you" (the toolbar capitalizes it): the
 * agent's words where it gave them, and "always" where the answer holds from now on.
 *
 * @example describeApproval({ approved: true, always: true }) // 'always allowed the tool call'
 */
export function describeApproval(part: { approved: boolean; label?: string | undefined; always?: boolean | undefined; reason?: string | undefined }): string {
  const verb = part.always && !part.label ? (part.approved ? 'always allowed' : 'always rejected') : part.approved ? 'approved' : 'rejected';
  return `${verb} the tool call${part.label ? ` with “${part.label}”` : ''}${part.reason ? `: ${part.reason}` : ''}`;
}
