/**
 * A small, fast, seeded PRNG (mulberry32) for tests and the bench: the same seed gives the same
 * sequence everywhere, so a failing seed can be replayed.
 *
 * @example const random = createRandom(42); random(); // 0.6011037519201636, every time
 */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
