/**
 * The tfjs backend a person picks for work that trains or fits (the Train view's and Start's
 * Advanced section): auto (the fastest a short probe measures in the worker) or one by name.
 */
import type { BackendName } from '../platform/tf.ts';

export type BackendChoice = 'auto' | BackendName;

// Not `platform/tf.ts`'s list: importing it would pull tfjs into the page.
export const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', 'webgpu', 'wasm', 'cpu'];

/** The names a worker's `init` takes for a choice: none for auto (the worker measures, jobs/probe-workload.ts). */
export const backendPreference = (choice: BackendChoice): BackendName[] | undefined => (choice === 'auto' ? undefined : [choice]);

export function BackendSelect({ id, value, disabled = false, onChange }: { id: string; value: BackendChoice; disabled?: boolean; onChange: (choice: BackendChoice) => void }) {
  return (
    <div class="row">
      <label for={id}>Backend</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange((e.target as HTMLSelectElement).value as BackendChoice)}>
        {BACKEND_CHOICES.map((name) => <option key={name} value={name}>{name === 'auto' ? 'auto (the fastest measured)' : name}</option>)}
      </select>
    </div>
  );
}
