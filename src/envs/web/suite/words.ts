/**
 * The words the bundled tasks are made of. Train and test instances differ by seed; the words are
 * shared, as MiniWoB++'s are (its single-widget tasks test the skill, not the vocabulary).
 */
export const WORDS = [
  'apple', 'river', 'stone', 'cloud', 'amber', 'maple', 'ocean', 'tiger', 'lemon', 'cedar', 'pearl', 'frost', 'ember', 'willow', 'falcon', 'copper',
  'meadow', 'harbor', 'violet', 'canyon', 'orbit', 'saddle', 'lantern', 'pepper', 'thistle', 'marble', 'glacier', 'sparrow', 'velvet', 'anchor', 'barley', 'comet',
  'dune', 'fern', 'granite', 'hazel', 'iris', 'juniper', 'kettle', 'lotus', 'mango', 'nectar', 'olive', 'pine', 'quartz', 'raven', 'sage', 'tulip',
  'umber', 'valley', 'walnut', 'yarrow', 'zephyr', 'basil', 'coral', 'delta', 'echo', 'fable', 'garnet', 'heron', 'indigo', 'jasper', 'kiwi', 'lilac',
];

export const FIRST_NAMES = ['alice', 'bruno', 'chen', 'dara', 'emeka', 'fatima', 'goran', 'hana', 'ivan', 'jun', 'kofi', 'lena', 'mateo', 'nadia', 'omar', 'priya', 'quinn', 'rosa', 'sami', 'tomas', 'uma', 'viktor', 'wei', 'yara', 'zane'];

export const BUTTON_WORDS = ['OK', 'Cancel', 'Submit', 'Next', 'Previous', 'Yes', 'No', 'Save', 'Delete', 'Close', 'Apply', 'Reset', 'Continue', 'Back', 'Done', 'Help'];

export const FIELD_LABELS = ['Name', 'City', 'Code', 'Nickname', 'Keyword', 'Reference', 'Title', 'Tag'];
