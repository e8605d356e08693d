/**
 * Task clusters for PPO, which plays each task once per iteration and so has no group of its own:
 * tasks are clustered by their instruction embeddings and a cluster stands in as the group whose
 * outcome variance the selection reads. Spherical k-means (the embeddings are unit vectors), seeded
 * with greedy k-means++ from the project's RNG so a run is reproducible.
 */
import type { Rng } from '../core/rng.ts';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

function normalise(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / n;
  return v;
}

export class TaskClusters {
  private constructor(readonly centroids: Float32Array[]) {}

  /** Cluster unit vectors into at most `k` groups (`iterations` Lloyd steps after k-means++ seeding). */
  static fit(vectors: readonly Float32Array[], k: number, rng: Rng, iterations = 10): TaskClusters {
    if (vectors.length === 0) throw new Error('cannot cluster zero tasks');
    const count = Math.max(1, Math.min(k, vectors.length));
    const centroids: Float32Array[] = [Float32Array.from(rng.pick(vectors))];
    // Greedy k-means++ (as scikit-learn does it): draw a few candidates by D², keep the one that
    // lowers the total distance most. Plain k-means++ too often seeds two centroids in one family.
    const trials = 2 + Math.floor(Math.log(count));
    const gap = (v: Float32Array, c: Float32Array): number => (1 - dot(v, c)) ** 2;
    let far = vectors.map((v) => gap(v, centroids[0] as Float32Array));
    while (centroids.length < count) {
      const total = far.reduce((a, d) => a + d, 0);
      let best: { pick: number; far: number[]; potential: number } | null = null;
      for (let t = 0; t < trials; t++) {
        let pick = rng.int(vectors.length);
        if (total > 0) {
          let u = rng.next() * total;
          for (pick = 0; pick < vectors.length - 1; pick++) if ((u -= far[pick] as number) <= 0) break;
        }
        const c = vectors[pick] as Float32Array;
        const next = vectors.map((v, i) => Math.min(far[i] as number, gap(v, c)));
        const potential = next.reduce((a, d) => a + d, 0);
        if (!best || potential < best.potential) best = { pick, far: next, potential };
      }
      centroids.push(Float32Array.from(vectors[(best as { pick: number }).pick] as Float32Array));
      far = (best as { far: number[] }).far;
    }
    const clusters = new TaskClusters(centroids);
    for (let it = 0; it < iterations; it++) {
      const sums = centroids.map((c) => new Float32Array(c.length));
      const sizes = new Array<number>(centroids.length).fill(0);
      for (const v of vectors) {
        const j = clusters.nearest(v);
        sizes[j]!++;
        const s = sums[j] as Float32Array;
        for (let i = 0; i < v.length; i++) s[i] = (s[i] as number) + (v[i] as number);
      }
      // An emptied cluster keeps its centroid rather than vanishing (ids stay stable).
      sums.forEach((s, j) => {
        if ((sizes[j] as number) > 0) centroids[j] = normalise(s);
      });
    }
    return clusters;
  }

  get size(): number {
    return this.centroids.length;
  }

  /** Index of the centroid most similar to `v`. */
  nearest(v: Float32Array): number {
    let best = 0;
    let bestSim = -Infinity;
    this.centroids.forEach((c, j) => {
      const s = dot(v, c);
      if (s > bestSim) {
        bestSim = s;
        best = j;
      }
    });
    return best;
  }
}
