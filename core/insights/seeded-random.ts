/**
 * A seeded pseudo-random source for the bootstrap of count-estimate.ts: the same key always gives the
 * same draws, so /insights.json stays byte-identical for the same reviews. Mulberry32 for uniforms,
 * Box–Muller for normals, Marsaglia–Tsang (2000) for gamma draws, and the gamma route for Dirichlet.
 */
export type Random = {
  uniform(): number;
  gamma(shape: number): number;
  /** Proportions drawn from Dirichlet(weights); every weight must be above 0. */
  dirichlet(weights: readonly number[]): number[];
  /** How many of `n` draws fall in each category of `probabilities` (summing to 1). */
  multinomial(n: number, probabilities: readonly number[]): number[];
};

/** Mulberry32: floats in [0, 1), the same sequence for the same seed. */
export function createUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRandom(key: string): Random {
  const uniform = createUniform(hashKey(key));
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  const gamma = (shape: number): number => {
    // Shapes below 1: draw at shape + 1 and scale by U^(1/shape) (Marsaglia–Tsang, §6).
    if (shape < 1) return gamma(shape + 1) * Math.pow(1 - uniform(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = normal();
      const v = (1 + c * x) ** 3;
      if (v <= 0) continue;
      const u = 1 - uniform();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  const dirichlet = (weights: readonly number[]) => {
    const draws = weights.map(gamma);
    const total = draws.reduce((sum, x) => sum + x, 0);
    return draws.map((x) => x / total);
  };
  // Exact for small n or rare outcomes (inversion of the pmf), the normal approximation otherwise:
  // each draw costs O(1) or O(n·p) with n·p small, so a bootstrap over thousands of reviews stays fast.
  const binomial = (n: number, p: number): number => {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    if (p > 0.5) return n - binomial(n, 1 - p);
    if (n <= 40) {
      let k = 0;
      for (let i = 0; i < n; i++) if (uniform() < p) k++;
      return k;
    }
    if (n * p < 15) {
      let u = uniform();
      let pmf = Math.pow(1 - p, n);
      let k = 0;
      while (u > pmf && k < n) {
        u -= pmf;
        pmf *= ((n - k) / (k + 1)) * (p / (1 - p));
        k++;
      }
      return k;
    }
    return Math.min(n, Math.max(0, Math.round(n * p + Math.sqrt(n * p * (1 - p)) * normal())));
  };
  const multinomial = (n: number, probabilities: readonly number[]) => {
    let left = n;
    let mass = 1;
    return probabilities.map((p, k) => {
      const drawn = k === probabilities.length - 1 ? left : binomial(left, mass <= 0 ? 0 : Math.min(1, p / mass));
      left -= drawn;
      mass -= p;
      return drawn;
    });
  };
  return { uniform, gamma, dirichlet, multinomial };
}

/** FNV-1a over the key's UTF-16 code units. */
function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
