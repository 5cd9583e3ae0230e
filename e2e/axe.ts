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
