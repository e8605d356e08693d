/**
 * Forms and multi-step wizards with validation: a form of one to eight fields over one to three
 * steps (text, e-mail, number, date, a choice, radios, a checkbox), some required and some checked
 * for their format; the instruction names the values, the rest stay empty. Submitting checks every
 * field against the goal (public/web/generated/families/forms.js).
 */
import type { Rng } from '../../../../core/rng.ts';
import { choose, click, fill, Page, pickRadio, setFlag } from '../oracle-tools.ts';
import { half, people, type AppFrame, type Family } from '../model.ts';
import { NOTE_WORDS } from '../vocabulary.ts';

export type FormField =
  | { label: string; kind: 'text' | 'email' | 'number' | 'date'; required: boolean; min?: number; max?: number }
  | { label: string; kind: 'choice' | 'radio'; options: string[]; required: boolean }
  | { label: string; kind: 'flag'; required: false };

export interface FormsWorld {
  title: string;
  steps: { title: string; fields: FormField[] }[];
  submit: string;
}
export type FormValue = string | boolean;
export interface FormsGoal {
  values: Record<string, FormValue>;
}

const STEP_TITLES = ['Details', 'Contact', 'Preferences', 'Review'];
const FORM_TITLES: Record<string, readonly string[]> = {
  clinic: ['New patient', 'Book an appointment', 'Request a repeat prescription'],
  library: ['Join the library', 'Suggest a purchase', 'Book a study room'],
  travel: ['Plan a trip', 'Request a refund', 'Add a traveller'],
  hr: ['New starter', 'Request leave', 'Submit an expense'],
  banking: ['Open an account', 'Set up a payment', 'Report a lost card'],
  school: ['Enrol a student', 'Report an absence', 'Join a club'],
};
const SUBMITS = ['Submit', 'Send request', 'Save', 'Confirm'];

function fieldPool(rng: Rng, frame: AppFrame): FormField[] {
  const fields: FormField[] = [
    { label: 'Full name', kind: 'text', required: true },
    { label: 'E-mail', kind: 'email', required: true },
    { label: 'Start date', kind: 'date', required: false },
    { label: 'Notes', kind: 'text', required: false },
    { label: 'Priority', kind: 'radio', options: ['Low', 'Normal', 'High'], required: false },
  ];
  for (const field of frame.domain.fields) {
    if (field.kind === 'choice') fields.push({ label: field.label, kind: 'choice', options: [...field.options], required: rng.chance(0.5) });
    else if (field.kind === 'text') fields.push({ label: field.label, kind: 'text', required: rng.chance(0.5) });
    else if (field.kind === 'number') fields.push({ label: field.label, kind: 'number', min: field.min, max: field.max, required: false });
    else fields.push({ label: field.label, kind: 'flag', required: false });
  }
  return fields;
}

function valueFor(rng: Rng, field: FormField, frame: AppFrame): FormValue {
  switch (field.kind) {
    case 'text': {
      if (field.label === 'Full name') return people(rng, frame.split, 1)[0] as string;
      if (field.label === 'Notes') return `${rng.pick(half(NOTE_WORDS, frame.split))} ${rng.pick(half(NOTE_WORDS, frame.split))}`;
      const spec = frame.domain.fields.find((f) => f.label === field.label);
      return spec?.kind === 'text' ? rng.pick(spec.values) : rng.pick(half(NOTE_WORDS, frame.split));
    }
    case 'email': {
      const name = (people(rng, frame.split, 1)[0] as string).toLowerCase().replace(' ', '.');
      return `${name}@example.org`;
    }
    case 'number':
      return String((field.min ?? 0) + rng.int((field.max ?? 100) - (field.min ?? 0) + 1));
    case 'date':
      return `20${25 + rng.int(4)}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`;
    case 'choice':
    case 'radio':
      return rng.pick(field.options);
    case 'flag':
      return true;
  }
}

function describe(label: string, value: FormValue): string {
  if (value === true) return `tick "${label}"`;
  return `${label} "${String(value)}"`;
}

export const forms: Family<FormsWorld, FormsGoal> = {
  id: 'forms',
  world(rng, frame) {
    const count = 1 + rng.int(8);
    const fields = rng.sample(fieldPool(rng, frame), count);
    const stepCount = Math.min(count, 1 + rng.int(3));
    // Fields spread over the steps in order, each step holding at least one.
    const cuts = rng.sample(Array.from({ length: count - 1 }, (_, i) => i + 1), stepCount - 1).sort((a, b) => a - b);
    const bounds = [0, ...cuts, count];
    const titles = rng.sample(STEP_TITLES, stepCount);
    const steps = titles.map((title, i) => ({ title, fields: fields.slice(bounds[i], bounds[i + 1]) }));
    return { title: rng.pick(FORM_TITLES[frame.domain.id] ?? ['Form']), steps, submit: rng.pick(SUBMITS) };
  },
  goal(rng, frame, world) {
    const fields = world.steps.flatMap((s) => s.fields);
    // Required fields are always asked for; up to two optional ones are left empty.
    const skipped = new Set(rng.sample(fields.filter((f) => !f.required), fields.length > 1 ? rng.int(3) : 0).map((f) => f.label));
    const values: Record<string, FormValue> = {};
    for (const field of fields) if (!skipped.has(field.label)) values[field.label] = valueFor(rng, field, frame);
    const asks = Object.entries(values).map(([label, value]) => describe(label, value));
    const steps = world.steps.length > 1 ? ` (${world.steps.length} steps)` : '';
    const instruction = asks.length === 0
      ? `Submit the "${world.title}" form${steps} without filling anything in.`
      : `Fill in the "${world.title}" form${steps}: ${asks.join(', ')}; leave the rest empty, then ${world.submit.toLowerCase()}.`;
    return { instruction, goal: { values } };
  },
  oracle(data) {
    return (observation) => {
      const page = new Page(observation);
      const { steps, submit } = data.world;
      const at = steps.findIndex((s, i) => page.headings().includes(stepHeading(i, steps.length, s.title)));
      const index = steps.length === 1 ? 0 : Math.max(0, at);
      const step = steps[index] as FormsWorld['steps'][number];
      for (const field of step.fields) {
        const want = data.goal.values[field.label];
        if (want === undefined) continue;
        const next = field.kind === 'choice' ? choose(page, field.label, want as string)
          : field.kind === 'radio' ? pickRadio(page, want as string)
            : field.kind === 'flag' ? setFlag(page, field.label, want === true)
              : fill(page, field.label, want as string);
        if (next !== null) return next;
      }
      return click(page, index === steps.length - 1 ? submit : 'Next');
    };
  },
};

/** The heading of a wizard's step (one step has none). */
export function stepHeading(index: number, count: number, title: string): string {
  return `Step ${index + 1} of ${count}: ${title}`;
}
