/**
 * What a household is made of: the four room kinds, their receptacle types, lamps and object types,
 * with ALFWorld's names and its physics (heat only with a microwave, cool only with a fridge, clean
 * only at a sink basin). Pure data: `world.ts` draws layouts and placements from it, `tasks.ts`
 * draws feasible goals from it, `env.ts` reads the properties when it decides what is admissible.
 */

export type RoomKind = 'kitchen' | 'livingroom' | 'bedroom' | 'bathroom';

export const ROOM_KINDS: readonly RoomKind[] = ['kitchen', 'livingroom', 'bedroom', 'bathroom'];

/** How a room kind is written in the state header (`room: living room`). */
export const ROOM_NAMES: Readonly<Record<RoomKind, string>> = {
  kitchen: 'kitchen',
  livingroom: 'living room',
  bedroom: 'bedroom',
  bathroom: 'bathroom',
};

export interface ReceptacleType {
  readonly type: string;
  /** Openables start closed: their contents are hidden and nothing can be taken or put until opened. */
  readonly openable: boolean;
  /** Only for the state listing (`apple 1 | in fridge 1` vs `on countertop 1`); ALFWorld's own
   * feedback always says "in/on". */
  readonly preposition: 'in' | 'on';
}

const r = (type: string, openable: boolean, preposition: 'in' | 'on'): ReceptacleType => ({ type, openable, preposition });

export const RECEPTACLE_TYPES: ReadonlyMap<string, ReceptacleType> = new Map(
  [
    r('armchair', false, 'on'),
    r('bathtubbasin', false, 'in'),
    r('bed', false, 'on'),
    r('cabinet', true, 'in'),
    r('coffeemachine', false, 'on'),
    r('coffeetable', false, 'on'),
    r('countertop', false, 'on'),
    r('desk', false, 'on'),
    r('diningtable', false, 'on'),
    r('drawer', true, 'in'),
    r('dresser', false, 'on'),
    r('fridge', true, 'in'),
    r('garbagecan', false, 'in'),
    r('handtowelholder', false, 'on'),
    r('laundryhamper', false, 'in'),
    r('microwave', true, 'in'),
    r('ottoman', false, 'on'),
    r('safe', true, 'in'),
    r('shelf', false, 'on'),
    r('sidetable', false, 'on'),
    r('sinkbasin', false, 'in'),
    r('sofa', false, 'on'),
    r('stoveburner', false, 'on'),
    r('toaster', false, 'on'),
    r('toilet', false, 'on'),
    r('toiletpaperhanger', false, 'on'),
    r('towelholder', false, 'on'),
    r('tvstand', false, 'on'),
  ].map((t) => [t.type, t]),
);

/** The appliance each transformation needs, as in ALFWorld's PDDL. */
export const HEAT_APPLIANCE = 'microwave';
export const COOL_APPLIANCE = 'fridge';
export const CLEAN_APPLIANCE = 'sinkbasin';

export interface ObjectType {
  readonly type: string;
  readonly cleanable: boolean;
  readonly heatable: boolean;
  readonly coolable: boolean;
  /** Receptacle types the object is found in and may be the target of a placing task. The agent may
   * still put it anywhere (ALFWorld does not forbid odd placements); this only shapes generation. */
  readonly receptacles: readonly string[];
}

type Props = 'c' | 'h' | 'k' | 'ch' | 'ck' | 'hk' | 'chk' | '';
/** `props`: c = cleanable, h = heatable, k = coolable (k for "keep cold"; c is taken). */
const o = (type: string, props: Props, receptacles: string): ObjectType => ({
  type,
  cleanable: props.includes('c'),
  heatable: props.includes('h'),
  coolable: props.includes('k'),
  receptacles: receptacles.split(' '),
});

const FOOD = 'countertop diningtable fridge microwave sinkbasin garbagecan';
const DISH = 'countertop diningtable cabinet shelf sinkbasin microwave fridge desk sidetable dresser coffeetable';
const CUTLERY = 'countertop diningtable drawer sinkbasin';
const POCKET = 'sofa armchair coffeetable sidetable desk dresser drawer shelf safe diningtable cabinet';
const TOILETRY = 'countertop cabinet toilet shelf garbagecan drawer dresser';

export const OBJECT_TYPES: ReadonlyMap<string, ObjectType> = new Map(
  [
    // Kitchen food: everything ALFRED lets you heat and cool, cleaned in the sink.
    o('apple', 'chk', FOOD),
    o('egg', 'chk', FOOD),
    o('potato', 'chk', FOOD),
    o('tomato', 'chk', FOOD),
    o('lettuce', 'ck', 'countertop diningtable fridge sinkbasin garbagecan'),
    o('bread', 'hk', 'countertop diningtable fridge microwave garbagecan'),
    // Dishes.
    o('mug', 'chk', `${DISH} coffeemachine`),
    o('cup', 'chk', DISH),
    o('plate', 'chk', DISH),
    o('bowl', 'ck', DISH),
    o('pan', 'ck', 'countertop diningtable cabinet stoveburner sinkbasin fridge'),
    o('pot', 'ck', 'countertop diningtable cabinet stoveburner sinkbasin fridge'),
    o('kettle', 'c', 'countertop diningtable cabinet stoveburner sinkbasin'),
    // Cutlery and tools.
    o('knife', 'c', CUTLERY),
    o('butterknife', 'c', CUTLERY),
    o('fork', 'c', CUTLERY),
    o('spoon', 'c', CUTLERY),
    o('spatula', 'c', CUTLERY),
    o('ladle', 'c', CUTLERY),
    o('dishsponge', 'c', `${CUTLERY} cabinet bathtubbasin toilet shelf`),
    o('saltshaker', '', 'countertop diningtable cabinet shelf drawer'),
    o('peppershaker', '', 'countertop diningtable cabinet shelf drawer'),
    o('winebottle', 'k', 'countertop diningtable fridge cabinet shelf garbagecan'),
    // Small things that live in pockets and drawers.
    o('keychain', '', POCKET),
    o('creditcard', '', `${POCKET} countertop`),
    o('cellphone', '', `${POCKET} bed`),
    o('watch', '', 'coffeetable sidetable desk dresser drawer shelf safe cabinet'),
    o('remotecontrol', '', 'sofa armchair coffeetable sidetable tvstand dresser drawer shelf ottoman'),
    o('cd', '', 'desk sidetable dresser drawer shelf safe garbagecan'),
    o('pen', '', 'desk sidetable dresser drawer shelf garbagecan'),
    o('pencil', '', 'desk sidetable dresser drawer shelf garbagecan'),
    // Bigger things.
    o('book', '', 'sofa armchair coffeetable sidetable shelf diningtable dresser drawer bed desk'),
    o('newspaper', '', 'sofa armchair coffeetable sidetable diningtable garbagecan ottoman shelf'),
    o('laptop', '', 'sofa armchair coffeetable sidetable diningtable ottoman tvstand bed desk dresser'),
    o('pillow', '', 'sofa armchair ottoman bed'),
    o('alarmclock', '', 'desk sidetable dresser shelf'),
    o('vase', '', 'coffeetable sidetable shelf tvstand diningtable dresser cabinet safe'),
    o('statue', '', 'coffeetable sidetable shelf tvstand diningtable dresser cabinet safe'),
    o('box', '', 'coffeetable sidetable sofa armchair diningtable shelf ottoman dresser'),
    o('tissuebox', '', 'coffeetable sidetable shelf dresser diningtable tvstand cabinet countertop toilet'),
    o('teddybear', '', 'bed armchair dresser shelf'),
    o('tennisracket', '', 'bed desk armchair'),
    // Bathroom.
    o('soapbar', 'c', `${TOILETRY} sinkbasin bathtubbasin`),
    o('soapbottle', '', `${TOILETRY} bathtubbasin`),
    o('toiletpaper', '', `${TOILETRY} toiletpaperhanger`),
    o('spraybottle', '', TOILETRY),
    o('cloth', 'c', `${TOILETRY} sinkbasin bathtubbasin`),
    o('candle', '', 'countertop cabinet toilet shelf drawer dresser'),
    o('towel', '', 'towelholder countertop bathtubbasin'),
    o('handtowel', '', 'handtowelholder countertop'),
  ].map((t) => [t.type, t]),
);

/** Lamps are fixed furniture: objects that cannot be picked up and that `use` turns on. */
export const LAMP_TYPES: readonly string[] = ['desklamp', 'floorlamp'];

export interface LampSpec {
  readonly type: string;
  /** Chance that a layout of this room kind has the lamp (a missing lamp makes look tasks infeasible). */
  readonly chance: number;
  /** Receptacle types the lamp may stand on (or next to, for a floor lamp). */
  readonly hosts: readonly string[];
}

export interface ReceptacleSpec {
  readonly type: string;
  readonly min: number;
  readonly max: number;
  /** Chance the receptacle type is present at all (1 when `min` > 0 means always). */
  readonly chance: number;
}

export interface RoomSpec {
  readonly kind: RoomKind;
  readonly receptacles: readonly ReceptacleSpec[];
  readonly lamps: readonly LampSpec[];
  /** Object types that can appear in this room. */
  readonly objects: readonly string[];
}

/** `type:min-max` or `type:min-max@chance` (present with that chance, then min..max of them). */
function receptacles(spec: string): ReceptacleSpec[] {
  return spec.split(' ').map((item) => {
    const m = /^([a-z]+):(\d+)-(\d+)(?:@([\d.]+))?$/.exec(item);
    if (!m) throw new Error(`bad receptacle spec ${item}`);
    return { type: m[1] as string, min: Number(m[2]), max: Number(m[3]), chance: m[4] === undefined ? 1 : Number(m[4]) };
  });
}

// Chances below 1 on the appliances are deliberate: some layouts lack a microwave, a fridge, a sink
// or a lamp, so the task generator has to check feasibility instead of assuming it.
export const ROOMS: Readonly<Record<RoomKind, RoomSpec>> = {
  kitchen: {
    kind: 'kitchen',
    receptacles: receptacles(
      'cabinet:3-10 coffeemachine:1-1 countertop:1-3 diningtable:1-1@0.6 drawer:2-8 fridge:1-1@0.95 garbagecan:1-1 ' +
        'microwave:1-1@0.85 shelf:1-3@0.4 sinkbasin:1-1@0.95 stoveburner:2-4 toaster:1-1@0.8',
    ),
    lamps: [],
    objects: (
      'apple egg potato tomato lettuce bread mug cup plate bowl pan pot kettle knife butterknife fork spoon ' +
      'spatula ladle dishsponge saltshaker peppershaker winebottle creditcard soapbottle'
    ).split(' '),
  },
  livingroom: {
    kind: 'livingroom',
    receptacles: receptacles(
      'armchair:1-2@0.7 cabinet:1-4@0.5 coffeetable:1-2 diningtable:1-1@0.3 drawer:1-4 dresser:1-1@0.3 ' +
        'garbagecan:1-1 ottoman:1-1@0.3 safe:1-1@0.2 shelf:1-4 sidetable:1-3 sofa:1-1 tvstand:1-1@0.6',
    ),
    lamps: [
      { type: 'floorlamp', chance: 0.75, hosts: ['sidetable', 'armchair', 'sofa'] },
      { type: 'desklamp', chance: 0.3, hosts: ['sidetable', 'dresser', 'coffeetable'] },
    ],
    objects: (
      'remotecontrol newspaper vase keychain creditcard book cellphone laptop pillow statue watch box tissuebox plate'
    ).split(' '),
  },
  bedroom: {
    kind: 'bedroom',
    receptacles: receptacles(
      'armchair:1-1@0.4 bed:1-1 desk:1-1@0.6 drawer:2-8 dresser:1-1 garbagecan:1-1 laundryhamper:1-1@0.4 ' +
        'safe:1-1@0.3 shelf:1-6@0.6 sidetable:1-2',
    ),
    lamps: [{ type: 'desklamp', chance: 0.85, hosts: ['desk', 'sidetable', 'dresser'] }],
    objects: (
      'cd book pen pencil alarmclock cellphone keychain creditcard pillow laptop mug bowl watch teddybear tennisracket'
    ).split(' '),
  },
  bathroom: {
    kind: 'bathroom',
    receptacles: receptacles(
      'bathtubbasin:1-1@0.6 cabinet:2-4 countertop:1-1 drawer:1-4@0.6 dresser:1-1@0.2 garbagecan:1-1 ' +
        'handtowelholder:1-2@0.6 shelf:1-2@0.5 sinkbasin:1-2@0.95 toilet:1-1 toiletpaperhanger:1-1 towelholder:1-2@0.6',
    ),
    lamps: [],
    objects: 'soapbar soapbottle toiletpaper spraybottle cloth candle towel handtowel tissuebox dishsponge'.split(' '),
  },
};

export function receptacleType(type: string): ReceptacleType {
  const spec = RECEPTACLE_TYPES.get(type);
  if (!spec) throw new Error(`unknown receptacle type ${type}`);
  return spec;
}

export function objectType(type: string): ObjectType {
  const spec = OBJECT_TYPES.get(type);
  if (!spec) throw new Error(`unknown object type ${type}`);
  return spec;
}
