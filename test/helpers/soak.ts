/**
 * Seeded randomness and scale for the reliability tests: `npm run soak` (ATOMIC_SOAK=1) runs
 * them many more times; ATOMIC_SEED=<n> replays a run (every test prints the seed it used).
 */

/** True under `npm run soak`. */
export const SOAK = process.env.ATOMIC_SOAK === "1";

/** `quick` in the ordinary suite, `soak` under `npm run soak`. */
export function scale(quick: number, soak: number): number {
  return SOAK ? soak : quick;
}

/** The seed for this run: ATOMIC_SEED when given, else a fresh one. */
export function runSeed(): number {
  const given = Number(process.env.ATOMIC_SEED);
  return Number.isInteger(given) ? given : Math.floor(Math.random() * 2 ** 31);
}

/** mulberry32: a small, fast, seeded PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
