// A Node prediction worker's first module. A worker thread starts without the module hooks its
// parent registered (`node --import tsx`), so it registers tsx itself before it loads the
// TypeScript that serves the pool (prediction-worker.node.ts).
import { register } from 'tsx/esm/api';

register();
await import('./prediction-worker.node.ts');
