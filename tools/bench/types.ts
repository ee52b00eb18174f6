/** One measured figure. The runner (run.ts) prints every row as a table and writes them as JSON. */
export type BenchRow = {
  /** What was measured, e.g. `build 100k reviews: wall time`. */
  name: string;
  value: number;
  unit: string;
  /** The target as text (`< 60 s`), when the issue sets one. */
  target?: string;
  /** Whether the value meets the target; absent when there is no target. */
  ok?: boolean;
};

/** A benchmark module: `tools/bench/<name>.ts` exports `run`. */
export type Bench = { name: string; run: () => Promise<BenchRow[]> };
