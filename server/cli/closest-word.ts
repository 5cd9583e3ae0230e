/** What a mistyped word (a command, an option, an agent id) most likely meant. */

/**
 * The candidate `word` is a typo of, or the same but for case: at most one edit in three letters
 * and two in all, two neighbours swapped counting as one; the nearest wins, else null.
 *
 * @example findClosest('prot', ['port', 'host']) // 'port'
 */
export function findClosest(word: string, candidates: readonly string[]): string | null {
  const lower = word.toLowerCase();
  let best: { candidate: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= Math.min(2, Math.floor(candidate.length / 3)) && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate ?? null;
}

/** The fewest one-character edits from a to b, two neighbours swapped counting as one (`prot`, `port`). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
