/** axe-core over the toolbar alone (the demo page is not ours to fix here). */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The toolbar's serious and critical axe violations, one line each; none is the goal. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('agentbar-toolbar').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/** What axe's colour-contrast rule found in the toolbar: the texts it measured, and those under WCAG AA, one line each. */
export interface ContrastReport {
  measured: number;
  violations: string[];
}

/**
 * Runs axe's colour-contrast rule over the toolbar. axe finds the colours behind a text on a map of
 * the page it draws from <body> down, and the toolbar's host is a child of <html> (after <body>),
 * where every text would be left undecided: the host moves into <body> while the rule runs (its
 * scrolled boxes kept where they were, which a move would reset).
 */
export async function checkContrast(page: Page): Promise<ContrastReport> {
  await page.evaluate(() => {
    const host = document.querySelector('agentbar-toolbar')!;
    const scrolled = [...host.shadowRoot!.querySelectorAll('*')].filter((el) => el.scrollTop > 0).map((el) => [el, el.scrollTop] as const);
    document.body.append(host);
    for (const [el, top] of scrolled) el.scrollTop = top;
  });
  try {
    const results = await new AxeBuilder({ page }).include('agentbar-toolbar').withRules(['color-contrast']).analyze();
    return {
      measured: results.passes.flatMap((v) => v.nodes).length + results.violations.flatMap((v) => v.nodes).length,
      violations: results.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.any.map((c) => c.message).join('; ')}`)),
    };
  } finally {
    await page.evaluate(() => document.documentElement.append(document.querySelector('agentbar-toolbar')!));
  }
}
