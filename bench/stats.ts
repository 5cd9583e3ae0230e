/** Percentiles and averages for the bench's samples. */

/** The p-th percentile (0–100) by nearest rank, NaN samples ignored; NaN for none. @example percentile([1, 2, 3, 4], 50) === 2 */
export function percentile(samples: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(samples).filter((x) => !Number.isNaN(x)).sort();
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function mean(samples: ArrayLike<number>): number {
  if (samples.length === 0) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]!;
  return sum / samples.length;
}

export function maxOf(samples: ArrayLike<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < samples.length; i++) if (samples[i]! > max) max = samples[i]!;
  return max;
}
