import { describe, expect, it } from 'vitest';
import { joinFields, renderState } from '../../../src/core/state.ts';
import { ACTION_RELATIONS, commandParts, DEFAULT_FEATURIZER, Featurizer, STATE_FACTS, type FeaturizerConfig, type SparseRow } from '../../../src/policy/featurizer.ts';

/** A household state as the home env renders it: at a receptacle, holding something. */
function homeState(location: string, holding: string, elements: { kind: string; text: string }[] = []): string {
  return renderState({
    header: [
      ['room', 'kitchen'],
      ['task', 'clean some tomato and put it in garbagecan.'],
      ['location', location],
      ['holding', holding],
      ['feedback', 'You arrive.'],
    ],
    elements,
  });
}

/** The named relation features of one action row (zeros omitted). */
function relations(row: SparseRow, config: FeaturizerConfig): Record<string, number> {
  const out: Record<string, number> = {};
  row.indices.forEach((index, j) => {
    if (index >= config.actionBuckets) out[ACTION_RELATIONS[index - config.actionBuckets] as string] = row.values[j] as number;
  });
  return out;
}

describe('Featurizer', () => {
  it('never hashes a word into a dense column: past the buckets there are only the facts and relations', () => {
    // Eight buckets and hundreds of words: with hashing over the whole row width, words would land in
    // the dense columns and be read as relations by the prior's linear path.
    const config: FeaturizerConfig = { ...DEFAULT_FEATURIZER, stateBuckets: 8, actionBuckets: 8 };
    const featurizer = new Featurizer(config);
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const observation = {
      text: homeState('countertop 1', 'nothing', [{ kind: 'object', text: joinFields(words, 'on countertop 1') }]),
      actions: Array.from({ length: 40 }, (_, i) => `go to ${words.split(' ')[i] as string} 1`),
    };
    const features = featurizer.featurize({ instruction: 'find the zebra', observation, history: [] }, observation.actions);
    const stateDense = features.state.indices.filter((i) => i >= config.stateBuckets);
    expect(stateDense.every((i) => i < config.stateBuckets + STATE_FACTS.length)).toBe(true);
    // bias is on; coverage is 0 (no instruction word in the state); progress is 0 at step 0.
    expect(stateDense).toEqual([config.stateBuckets]);
    for (const row of features.actions) {
      // Each of these moves to an unnamed, unvisited place: only the bias and its list position.
      expect(Object.keys(relations(row, config)).filter((k) => k !== 'position')).toEqual(['bias']);
    }
  });

  it('splits a command into verb, argument and destination', () => {
    expect(commandParts('take egg 1 from fridge 1')).toEqual({ verb: 'take', argument: ['egg', '1'], preposition: 'from', rest: ['fridge', '1'] });
    expect(commandParts('go to drawer 3')).toEqual({ verb: 'go', argument: ['drawer', '3'], preposition: null, rest: [] });
    expect(commandParts('put mug 1 in/on countertop 2')).toMatchObject({ argument: ['mug', '1'], preposition: 'in', rest: ['countertop', '2'] });
    expect(commandParts('inventory')).toEqual({ verb: 'inventory', argument: [], preposition: null, rest: [] });
  });

  it('relates household commands to the request, the hands and the recent past', () => {
    const featurizer = new Featurizer();
    const instruction = 'clean some tomato and put it in garbagecan.';
    const at = (location: string, holding: string, actions: string[], history: string[], elements: { kind: string; text: string }[] = []) => {
      const observation = { text: homeState(location, holding, elements), actions };
      const features = featurizer.featurize({ instruction, observation, history }, actions);
      return Object.fromEntries(actions.map((a, k) => [a, relations(features.actions[k] as SparseRow, DEFAULT_FEATURIZER)]));
    };
    const carrying = at('garbagecan 1', 'tomato 1', ['put tomato 1 in/on garbagecan 1', 'go to sinkbasin 1', 'examine tomato 1'], ['go to garbagecan 1']);
    expect(carrying['put tomato 1 in/on garbagecan 1']).toMatchObject({ argumentInInstruction: 1, destinationInInstruction: 1, carriesWantedToGoal: 1 });
    expect(carrying['put tomato 1 in/on garbagecan 1']).not.toHaveProperty('dropsWanted');
    expect(carrying['go to sinkbasin 1']).not.toHaveProperty('carriesWantedToGoal');

    const elsewhere = at('sinkbasin 1', 'tomato 1', ['put tomato 1 in/on sinkbasin 1', 'clean tomato 1 with sinkbasin 1', 'go to garbagecan 1'], ['go to sinkbasin 1']);
    expect(elsewhere['put tomato 1 in/on sinkbasin 1']).toMatchObject({ dropsWanted: 1 });
    expect(elsewhere['clean tomato 1 with sinkbasin 1']).toMatchObject({ verbInInstruction: 1, argumentInInstruction: 1 });
    expect(elsewhere['clean tomato 1 with sinkbasin 1']).not.toHaveProperty('dropsWanted');
    expect(elsewhere['go to garbagecan 1']).toMatchObject({ carriesWantedToGoal: 1 });

    // Taking it back out of the place the request names undoes progress, however long ago it was made.
    const longAfter = ['put tomato 1 in/on garbagecan 1', 'look', 'inventory', 'look', 'inventory'];
    const emptyHanded = at('garbagecan 1', 'nothing', ['take tomato 1 from garbagecan 1', 'take apple 1 from garbagecan 1'], longAfter);
    expect(emptyHanded['take tomato 1 from garbagecan 1']).toMatchObject({ takesFromGoal: 1, argumentInInstruction: 1 });
    expect(emptyHanded['take tomato 1 from garbagecan 1']).not.toHaveProperty('undoesRecent');
    expect(emptyHanded['take apple 1 from garbagecan 1']).not.toHaveProperty('takesFromGoal');
    expect(emptyHanded['take apple 1 from garbagecan 1']).toMatchObject({ takesUnwanted: 1 });
    expect(emptyHanded['take tomato 1 from garbagecan 1']).not.toHaveProperty('takesUnwanted');

    const fridge = at('fridge 1', 'nothing', ['close fridge 1', 'take tomato 1 from fridge 1'], ['go to fridge 1', 'open fridge 1'], [
      { kind: 'receptacle', text: joinFields('fridge 1', 'open') },
      { kind: 'object', text: joinFields('tomato 1', 'in fridge 1') },
    ]);
    expect(fridge['close fridge 1']).toMatchObject({ undoesRecent: 1 });
    expect(fridge['take tomato 1 from fridge 1']).not.toHaveProperty('undoesRecent');

    const closed = at('drawer 2', 'nothing', ['open drawer 2'], ['go to drawer 2'], [{ kind: 'receptacle', text: joinFields('drawer 2', 'closed') }]);
    expect(closed['open drawer 2']).toMatchObject({ opensClosed: 1 });
  });

  it('keeps counting repeats past three, so a greedy loop keeps getting less attractive', () => {
    const featurizer = new Featurizer();
    const actions = ['examine bowl 1', 'go to desk 1'];
    const observation = { text: homeState('dresser 1', 'bowl 1'), actions };
    const timesTaken = (repeats: number) => {
      const history = Array.from({ length: repeats }, () => ['examine bowl 1', 'look']).flat();
      const row = featurizer.featurize({ instruction: 'examine the bowl with the desklamp.', observation, history }, actions).actions[0] as SparseRow;
      return relations(row, DEFAULT_FEATURIZER).timesTaken;
    };
    expect(timesTaken(3)).toBeCloseTo(1);
    expect(timesTaken(6)).toBeCloseTo(2);
    expect(timesTaken(20)).toBeCloseTo(3);
  });

  it('gives web actions none of the command relations', () => {
    const featurizer = new Featurizer();
    const observation = { text: renderState({ header: [['page', 'search']], elements: [] }), actions: ['search[red mug]', 'click[Back to Search]'] };
    const features = featurizer.featurize({ instruction: 'i want a red mug', observation, history: ['click[Back to Search]'] }, observation.actions);
    const commandRelations = ACTION_RELATIONS.slice(ACTION_RELATIONS.indexOf('argumentInInstruction'));
    for (const row of features.actions) {
      expect(Object.keys(relations(row, DEFAULT_FEATURIZER)).filter((k) => (commandRelations as readonly string[]).includes(k))).toEqual([]);
    }
  });
});

describe('Featurizer on web page actions', () => {
  /** A checkout page as the web env renders it. */
  const checkout = {
    text: renderState({
      header: [['title', 'Checkout'], ['url', '/checkout.html']],
      elements: [
        { kind: 'heading', text: 'Checkout' },
        { kind: 'textbox', text: joinFields('#16 Ship to', 'empty') },
        { kind: 'combobox', text: joinFields('#7 Size', 'M') },
        { kind: 'button', text: '#17 Place order' },
      ],
    }),
    actions: ['type[#16 Ship to | ...]', 'select[#7 Size | M]', 'select[#7 Size | S]', 'click[#17 Place order]'],
  };
  const instruction = 'Buy the "Lumo hazel blanket" in size S and ship it to "Bruno Nakamura".';
  const candidates = ['type[#16 Ship to | Lumo hazel blanket]', 'type[#16 Ship to | Bruno Nakamura]', 'select[#7 Size | M]', 'select[#7 Size | S]', 'click[#17 Place order]'];

  function rows(input: { instruction: string; observation: { text: string; actions: string[] }; history?: string[] }, actions: string[]): Record<string, number>[] {
    const features = new Featurizer().featurize({ history: [], ...input }, actions);
    return features.actions.map((row) => relations(row, DEFAULT_FEATURIZER));
  }

  it('tells the value that belongs in a field by the words before it in the request, for names it never saw', () => {
    const [product, person, sizeM, sizeS, place] = rows({ instruction, observation: checkout }, candidates);
    // Both typed texts are named by the request; only the person stands after "ship it to".
    expect(product).toMatchObject({ argumentInInstruction: 1 });
    expect(product?.destinationInInstruction).toBeUndefined();
    expect(person).toMatchObject({ argumentInInstruction: 1, destinationInInstruction: 1 });
    // A one-letter size is still a value the request names, right after "size".
    expect(sizeS).toMatchObject({ argumentInInstruction: 1, destinationInInstruction: 1 });
    expect(sizeM?.argumentInInstruction).toBeUndefined();
    expect(place?.argumentInInstruction).toBeUndefined();
    // None of it is read as a household command (no "takes what the request does not name").
    for (const row of [product, person, sizeM, sizeS, place]) expect(row?.takesUnwanted).toBeUndefined();
  });

  it("marks the element whose name holds the request's verb and its quoted span", () => {
    const inbox = {
      text: renderState({
        header: [['title', 'Inbox']],
        elements: [
          { kind: 'link', text: '#5 Rosa Haddad: Maple meeting' },
          { kind: 'button', text: '#6 Star Maple meeting' },
          { kind: 'button', text: '#7 Delete Maple meeting' },
          { kind: 'button', text: '#9 Star Hazel invoice' },
        ],
      }),
      actions: ['click[#5 Rosa Haddad: Maple meeting]', 'click[#6 Star Maple meeting]', 'click[#7 Delete Maple meeting]', 'click[#9 Star Hazel invoice]'],
    };
    const [link, star, remove, otherStar] = rows({ instruction: 'Star the e-mail from Rosa Haddad about "Maple meeting".', observation: inbox }, inbox.actions);
    expect(star).toMatchObject({ verbInInstruction: 1, phraseInInstruction: 1 });
    expect(link).toMatchObject({ phraseInInstruction: 1 });
    expect(link?.verbInInstruction).toBeUndefined();
    expect(remove?.verbInInstruction).toBeUndefined();
    expect(otherStar).toMatchObject({ verbInInstruction: 1 });
    expect(otherStar?.phraseInInstruction).toBeUndefined();
  });

  it('does not read the page numbering: the same page under other ids gives the same rows', () => {
    const renumbered = { text: checkout.text.replaceAll('#16', '#41').replaceAll('#7', '#3').replaceAll('#17', '#42'), actions: [] };
    const renumber = (a: string) => a.replace('#16', '#41').replace('#7', '#3').replace('#17', '#42');
    const featurizer = new Featurizer();
    const a = featurizer.featurize({ instruction, observation: checkout, history: [] }, candidates);
    const b = featurizer.featurize({ instruction, observation: renumbered, history: [] }, candidates.map(renumber));
    expect(b.actions).toEqual(a.actions);
  });

  it('knows what it did on a page drawn again under new ids: the same message clicked, the same menu changed', () => {
    // An app draws its inbox again after every action: the message clicked as #6 is #19 on return.
    const inbox = (id: number) => ({
      text: renderState({ header: [['title', 'Inbox']], elements: [{ kind: 'button', text: `#${id} Compose` }, { kind: 'link', text: `#${id + 1} Jun Jensen: Overdraft` }] }),
      actions: [`click[#${id} Compose]`, `click[#${id + 1} Jun Jensen: Overdraft]`],
    });
    const request = 'Write a new message to Jun Jensen with the subject "Lilac overdraft".';
    const fresh = inbox(5);
    const [compose, message] = rows({ instruction: request, observation: fresh }, fresh.actions);
    expect(message?.taken).toBeUndefined();
    const back = inbox(18);
    const [composeAgain, messageAgain] = rows({ instruction: request, observation: back, history: ['click[#6 Jun Jensen: Overdraft]', 'click[#10 Inbox]'] }, back.actions);
    expect(messageAgain).toMatchObject({ taken: 1 });
    expect(messageAgain?.timesTaken).toBeCloseTo(1 / 3);
    expect(composeAgain).toEqual(compose);
    // The history's words are the same under any numbering (an id says nothing about what was done).
    const a = new Featurizer().featurize({ instruction: request, observation: back, history: ['click[#6 Jun Jensen: Overdraft]'] }, back.actions);
    const b = new Featurizer().featurize({ instruction: request, observation: back, history: ['click[#31 Jun Jensen: Overdraft]'] }, back.actions);
    expect(b).toEqual(a);

    // Changing one menu again and again is a loop too, whichever value: counted per element.
    const product = {
      text: renderState({ header: [['title', 'Lilac travel wallet']], elements: [{ kind: 'combobox', text: joinFields('#15 Design', 'value: Classic') }, { kind: 'button', text: '#16 Add to cart' }] }),
      actions: ['select[#15 Design | Metal]', 'click[#16 Add to cart]'],
    };
    const history = ['select[#10 Design | Classic]', 'select[#15 Design | Metal]', 'select[#20 Design | Classic]'];
    const [metal, add] = rows({ instruction: 'Buy the "Lilac travel wallet" (design: Classic).', observation: product, history }, product.actions);
    expect(metal).toMatchObject({ taken: 1, timesTaken: 1 });
    expect(add?.taken).toBeUndefined();
    expect(add?.timesTaken).toBeUndefined();
  });

  it('marks checking again what was just unchecked on the same element, under its id or, drawn again, its name', () => {
    // The form as it was, and as the page drew it again after the uncheck (new ids, same names).
    for (const [active, admin] of [[3, 4], [12, 13]]) {
      const form = {
        text: renderState({ header: [['title', 'Edit Dara Berg']], elements: [{ kind: 'checkbox', text: joinFields(`#${active} Active`, 'unchecked') }, { kind: 'checkbox', text: joinFields(`#${admin} Admin`, 'unchecked') }] }),
        actions: [`check[#${active} Active]`, `check[#${admin} Admin]`],
      };
      const [again, other] = rows({ instruction: "Make Dara Berg's account inactive and save.", observation: form, history: ['uncheck[#3 Active]'] }, form.actions);
      expect(again).toMatchObject({ undoesRecent: 1 });
      expect(other?.undoesRecent).toBeUndefined();
    }
  });
});

describe('Featurizer: which field a value belongs in', () => {
  function rowsFor(instruction: string, elements: { kind: string; text: string }[], actions: string[]): Record<string, number>[] {
    const observation = { text: renderState({ header: [['title', 'Form']], elements }), actions };
    return new Featurizer().featurize({ instruction, observation, history: [] }, actions).actions.map((row) => relations(row, DEFAULT_FEATURIZER));
  }

  it('gives a value to the nearest field named beside it, before or after', () => {
    const login = [
      { kind: 'textbox', text: joinFields('#1 Username', 'empty') },
      { kind: 'textbox', text: joinFields('#2 Password', 'empty') },
    ];
    const actions = ['type[#1 Username | sami]', 'type[#2 Password | sami]', 'type[#1 Username | walnut25]', 'type[#2 Password | walnut25]'];
    const [userSami, passSami, userWalnut, passWalnut] = rowsFor('Log in with the username "sami" and the password "walnut25".', login, actions);
    expect(userSami?.destinationInInstruction).toBe(1);
    expect(passSami?.destinationInInstruction).toBeUndefined();
    expect(userWalnut?.destinationInInstruction).toBeUndefined();
    expect(passWalnut?.destinationInInstruction).toBe(1);
    // After the value: "as the due date".
    const [due] = rowsFor('Enter 2028-09-06 as the due date and submit.', [{ kind: 'textbox', text: joinFields('#1 Due date', 'empty') }], ['type[#1 Due date | 2028-09-06]']);
    expect(due).toMatchObject({ argumentInInstruction: 1, destinationInInstruction: 1 });
  });

  it('reads only values that stand whole in the request', () => {
    const field = [{ kind: 'textbox', text: joinFields('#1 Due date', 'empty') }];
    const [whole, year, day] = rowsFor('Enter 2028-09-06 as the due date and submit.', field, ['type[#1 Due date | 2028-09-06]', 'type[#1 Due date | 2028]', 'type[#1 Due date | 06]']);
    expect(whole?.argumentInInstruction).toBe(1);
    expect(year?.argumentInInstruction).toBeUndefined();
    expect(day?.argumentInInstruction).toBeUndefined();
  });

  it('does not ask again for what a field holds, and marks overwriting it', () => {
    const filled = [{ kind: 'textbox', text: joinFields('#20 To', 'value: omar.costa@example.org', 'focused') }, { kind: 'button', text: '#22 Send' }];
    const [again, subject] = rowsFor('Forward the e-mail from Alice Santos about "Iris photos" to omar.costa@example.org.', filled, ['type[#20 To | omar.costa@example.org]', 'type[#20 To | Iris photos]']);
    expect(again?.argumentInInstruction).toBeUndefined();
    expect(again?.destinationInInstruction).toBeUndefined();
    expect(subject).toMatchObject({ argumentInInstruction: 1, dropsWanted: 1 });
  });
});
