/**
 * Least squares for the cost model: each measured operation is
 *
 *   ms = request + Σ occurrences(field) × base(field) + k × points + c_fullText × fullText + c_fuzzy × fuzzy
 *
 * `request` is what any operation costs (HTTP, parsing, the gateway's plan), `base(field)` what
 * each occurrence of a root field adds (aliases repeat it), `k` the global ms per selected value,
 * and the criterion terms what each expensive Search criterion adds. Solved by the normal
 * equations: a few dozen unknowns, so Gaussian elimination with partial pivoting is enough.
 */
export interface Observation {
  /** Occurrences of each root field in the operation ("Query.searchProducts": 3). */
  occurrences: Record<string, number>;
  /** The estimate's selected values (estimateOperation().values). */
  points: number;
  fullText: number;
  fuzzy: number;
  ms: number;
}

export interface Fit {
  requestMs: number;
  msPerPoint: number;
  baseMs: Record<string, number>;
  fullTextMs: number;
  fuzzyMs: number;
  rSquared: number;
  /** Measured minus predicted, per observation, in ms. */
  residuals: number[];
  predicted: number[];
}

function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]]);
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let row = column + 1; row < n; row++) if (Math.abs(a[row][column]) > Math.abs(a[pivot][column])) pivot = row;
    if (Math.abs(a[pivot][column]) < 1e-12) throw new Error(`the fit is underdetermined at unknown ${column}: vary that term across operations`);
    [a[column], a[pivot]] = [a[pivot], a[column]];
    for (let row = 0; row < n; row++) {
      if (row === column) continue;
      const factor = a[row][column] / a[column][column];
      for (let c = column; c <= n; c++) a[row][c] -= factor * a[column][c];
    }
  }
  return a.map((row, i) => row[n] / row[i]);
}

export function fitCostModel(observations: Observation[]): Fit {
  const fields = [...new Set(observations.flatMap((o) => Object.keys(o.occurrences)))].sort();
  const withCriteria = observations.some((o) => o.fullText) || observations.some((o) => o.fuzzy);
  const row = (o: Observation) => [1, ...fields.map((f) => o.occurrences[f] ?? 0), o.points, ...(withCriteria ? [o.fullText, o.fuzzy] : [])];
  const rows = observations.map(row);
  const width = rows[0].length;
  const normal = Array.from({ length: width }, (_, i) => Array.from({ length: width }, (_, j) => rows.reduce((sum, r) => sum + r[i] * r[j], 0)));
  const rhs = Array.from({ length: width }, (_, i) => rows.reduce((sum, r, index) => sum + r[i] * observations[index].ms, 0));
  const beta = solve(normal, rhs);
  const predicted = rows.map((r) => r.reduce((sum, x, i) => sum + x * beta[i], 0));
  const residuals = observations.map((o, i) => o.ms - predicted[i]);
  const mean = observations.reduce((sum, o) => sum + o.ms, 0) / observations.length;
  const total = observations.reduce((sum, o) => sum + (o.ms - mean) ** 2, 0);
  const unexplained = residuals.reduce((sum, r) => sum + r * r, 0);
  return {
    requestMs: beta[0],
    baseMs: Object.fromEntries(fields.map((f, i) => [f, beta[1 + i]])),
    msPerPoint: beta[1 + fields.length],
    fullTextMs: withCriteria ? beta[2 + fields.length] : 0,
    fuzzyMs: withCriteria ? beta[3 + fields.length] : 0,
    rSquared: total ? 1 - unexplained / total : 1,
    residuals,
    predicted,
  };
}
