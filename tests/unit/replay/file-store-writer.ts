// Child process for the crash test: keeps adding a batch and saving, printing "saved" after each.
import { FileReplayStore } from '../../../src/replay/file-store.ts';
import { transition } from './helpers.ts';

const [file, batchText] = process.argv.slice(2) as [string, string];
const batch = Number(batchText);
const store = await FileReplayStore.open(file);
for (let round = 0; ; round++) {
  const base = await store.count();
  // Big enough states that a save takes a while, so kills land mid-write.
  await store.add(Array.from({ length: batch }, (_, i) => transition(base + i, { state: { text: `page: search\n[1] text: ${'w'.repeat(4000)}`, actions: [] } })));
  await store.save();
  process.stdout.write('saved\n');
}
