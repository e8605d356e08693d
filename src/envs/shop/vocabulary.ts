/**
 * The store's departments: plain data, like WebShop's scraped categories. Each category has its own
 * attribute vocabulary, option types and price range, so instructions read like WebShop's and
 * attributes are meaningful only within their department.
 */

export interface OptionType {
  name: string;
  values: readonly string[];
}

export interface CategorySpec {
  key: string;
  /** Category path, most general first; two products "match category" when ≥ 2 components agree. */
  path: readonly string[];
  /** Product-type nouns used in titles and instructions; the first is the canonical one. */
  nouns: readonly string[];
  /** Qualifiers for whom / what it is for, appended to some titles ("for men"). */
  audiences: readonly string[];
  attributes: readonly string[];
  options: readonly OptionType[];
  price: readonly [low: number, high: number];
  brands: readonly string[];
  /** Sentence fragments that make descriptions read like a product page. */
  blurbs: readonly string[];
}

export const CATEGORIES: readonly CategorySpec[] = [
  {
    key: 'shoes',
    path: ['clothing, shoes & jewelry', 'shoes', 'athletic shoes', 'running shoes'],
    nouns: ['running shoes', 'sneakers', 'trail running shoes'],
    audiences: ['for men', 'for women', 'unisex'],
    attributes: ['non-slip', 'breathable', 'lightweight', 'memory foam', 'rubber sole', 'arch support',
      'water resistant', 'wide toe box', 'cushioned', 'mesh upper', 'pull tab', 'shock absorbing'],
    options: [
      { name: 'size', values: ['5', '6', '7', '8', '9', '10', '11', '12', '13', '14'] },
      { name: 'color', values: ['black', 'white', 'navy blue', 'grey', 'red', 'olive green', 'beige', 'charcoal'] },
    ],
    price: [24, 139],
    brands: ['strideon', 'velotrek', 'hikora', 'pacewell', 'runlite', 'terrafit'],
    blurbs: ['built for daily miles on road and trail', 'a comfortable fit from the first run', 'designed for all-day wear'],
  },
  {
    key: 'haircare',
    path: ['beauty & personal care', 'hair care', 'shampoo & conditioner', 'shampoo'],
    nouns: ['shampoo', 'hair shampoo', 'clarifying shampoo'],
    audiences: ['for curly hair', 'for dry hair', 'for oily scalp', 'for color treated hair'],
    attributes: ['sulfate free', 'paraben free', 'cruelty free', 'natural ingredients', 'argan oil', 'tea tree',
      'moisturizing', 'anti dandruff', 'vegan', 'fragrance free', 'volumizing', 'keratin'],
    options: [
      { name: 'size', values: ['travel size', '12 fl oz', '33.8 fl oz', '2 pack', '3 pack'] },
      { name: 'scent', values: ['coconut', 'lavender', 'citrus', 'peppermint', 'unscented', 'rose'] },
    ],
    price: [6, 48],
    brands: ['lumiere', 'verdant', 'silkroot', 'aquaveil', 'nourisha', 'pureleaf'],
    blurbs: ['gentle enough for everyday washing', 'leaves hair soft and manageable', 'salon quality at home'],
  },
  {
    key: 'coffee',
    path: ['grocery & gourmet food', 'beverages', 'coffee', 'ground coffee'],
    nouns: ['ground coffee', 'whole bean coffee', 'coffee pods'],
    audiences: ['for drip machines', 'for espresso', 'for french press'],
    attributes: ['organic', 'fair trade', 'decaf', 'dark roast', 'medium roast', 'light roast', 'single origin',
      'low acid', 'kosher', 'gluten free', 'non gmo', 'shade grown'],
    options: [
      { name: 'flavor', values: ['original', 'vanilla', 'hazelnut', 'caramel', 'mocha', 'french roast'] },
      { name: 'size', values: ['12 ounce', '30 ounce', '2 pound', '40 count', '96 count'] },
    ],
    price: [7, 64],
    brands: ['highland brew', 'morning peak', 'cafe sereno', 'black ridge', 'kona mist', 'roastery nine'],
    blurbs: ['roasted in small batches', 'rich aroma and smooth finish', 'freshly packed to lock in flavor'],
  },
  {
    key: 'laptops',
    path: ['electronics', 'computers & accessories', 'computers & tablets', 'laptops'],
    nouns: ['laptop', 'notebook computer', 'chromebook'],
    audiences: ['for students', 'for business', 'for gaming'],
    attributes: ['backlit keyboard', 'touchscreen', 'fingerprint reader', 'full hd', 'long battery life',
      'lightweight', 'ssd storage', 'wifi 6', 'thunderbolt', 'quad core', 'high refresh rate', 'ultra thin'],
    options: [
      { name: 'memory', values: ['8gb ram', '16gb ram', '32gb ram'] },
      { name: 'storage', values: ['256gb', '512gb', '1tb', '2tb'] },
      { name: 'color', values: ['silver', 'space grey', 'midnight black', 'platinum'] },
    ],
    price: [219, 1899],
    brands: ['zentro', 'novabook', 'corelight', 'aeropad', 'vexon', 'quantix'],
    blurbs: ['performance for work and play', 'a crisp display in a slim chassis', 'ready for all-day productivity'],
  },
  {
    key: 'furniture',
    path: ['home & kitchen', 'furniture', 'living room furniture', 'accent chairs'],
    nouns: ['accent chair', 'armchair', 'lounge chair'],
    audiences: ['for living room', 'for bedroom', 'for office'],
    attributes: ['mid century modern', 'easy assembly', 'solid wood legs', 'velvet', 'faux leather', 'tufted',
      'swivel', 'high back', 'padded seat', 'stain resistant', 'upholstered', 'nailhead trim'],
    options: [
      { name: 'color', values: ['emerald green', 'charcoal', 'cream', 'mustard yellow', 'dusty pink', 'cognac brown'] },
      { name: 'style', values: ['single', 'set of 2'] },
    ],
    price: [79, 649],
    brands: ['oakhaven', 'lounger co', 'nordvik', 'casabella', 'urbanloft', 'woodmere'],
    blurbs: ['a statement piece for any room', 'sturdy frame and soft cushioning', 'assembles in minutes'],
  },
  {
    key: 'snacks',
    path: ['grocery & gourmet food', 'snack foods', 'chips & crisps', 'potato chips'],
    nouns: ['potato chips', 'kettle chips', 'veggie crisps'],
    audiences: ['for lunch boxes', 'for parties', 'for snacking on the go'],
    attributes: ['gluten free', 'non gmo', 'low sodium', 'kosher', 'vegan', 'baked', 'kettle cooked',
      'no artificial flavors', 'high protein', 'individually wrapped', 'sugar free', 'nut free'],
    options: [
      { name: 'flavor', values: ['sea salt', 'barbecue', 'sour cream & onion', 'salt & vinegar', 'jalapeno', 'cheddar'] },
      { name: 'pack count', values: ['single bag', '12 count box', 'variety case', 'family size bag'] },
    ],
    price: [5, 42],
    brands: ['crunchtown', 'golden harvest', 'snackwell farms', 'saltbox', 'crisp & co', 'prairie gold'],
    blurbs: ['cooked in small batches for extra crunch', 'made with simple ingredients', 'a satisfying crunch in every bite'],
  },
  {
    key: 'phonecases',
    path: ['cell phones & accessories', 'cases, holsters & sleeves', 'basic cases', 'phone cases'],
    nouns: ['phone case', 'protective case', 'wallet case'],
    audiences: ['for iphone 15', 'for galaxy s24', 'for pixel 8', 'for iphone 14'],
    attributes: ['shockproof', 'slim fit', 'wireless charging compatible', 'card holder', 'kickstand',
      'military grade drop protection', 'scratch resistant', 'magnetic', 'clear back', 'raised bezel', 'anti yellowing', 'wrist strap'],
    options: [
      { name: 'color', values: ['clear', 'matte black', 'navy', 'lilac purple', 'forest green', 'rose gold'] },
      { name: 'model', values: ['mini', 'standard', 'plus', 'ultra'] },
    ],
    price: [6, 59],
    brands: ['armorly', 'shellguard', 'tekskin', 'caseforge', 'slimcore', 'guardly'],
    blurbs: ['protection without the bulk', 'precise cutouts for every port', 'a grippy texture that stays put'],
  },
  {
    key: 'tshirts',
    path: ['clothing, shoes & jewelry', 'clothing', 'tops & tees', 't-shirts'],
    nouns: ['t-shirt', 'crew neck tee', 'graphic tee'],
    audiences: ['for men', 'for women', 'for boys', 'for girls'],
    attributes: ['machine wash', 'cotton', 'moisture wicking', 'short sleeve', 'long sleeve', 'relaxed fit',
      'slim fit', 'tagless', 'quick dry', 'pre shrunk', 'heavyweight', 'polyester blend'],
    options: [
      { name: 'color', values: ['heather grey', 'black', 'white', 'royal blue', 'maroon', 'military green'] },
      { name: 'size', values: ['s', 'm', 'l', 'xl', 'xxl', '3xl'] },
    ],
    price: [8, 44],
    brands: ['basicthread', 'coastline', 'everyday co', 'hempfield', 'urban tee', 'northwear'],
    blurbs: ['soft fabric that keeps its shape wash after wash', 'a classic cut for everyday wear', 'easy to layer'],
  },
  {
    key: 'headphones',
    path: ['electronics', 'headphones, earbuds & accessories', 'headphones', 'over-ear headphones'],
    nouns: ['wireless headphones', 'over ear headphones', 'earbuds'],
    audiences: ['for travel', 'for gym', 'for kids', 'for gaming'],
    attributes: ['noise cancelling', 'bluetooth 5.3', 'long battery life', 'foldable', 'built-in microphone',
      'sweatproof', 'fast charging', 'hi-res audio', 'low latency', 'memory foam ear cushions', 'wired', 'touch control'],
    options: [
      { name: 'color', values: ['jet black', 'pearl white', 'midnight blue', 'sage', 'coral'] },
      { name: 'style', values: ['headphones only', 'with case', 'with charging dock'] },
    ],
    price: [15, 399],
    brands: ['sonique', 'bassline', 'auralis', 'quietwave', 'tunegear', 'echoa'],
    blurbs: ['clear sound for music and calls', 'comfortable for hours of listening', 'pairs in seconds'],
  },
  {
    key: 'candles',
    path: ['home & kitchen', 'home decor', 'candles & holders', 'candles'],
    nouns: ['scented candle', 'soy candle', 'jar candle'],
    audiences: ['for home', 'for relaxation', 'for gifts'],
    attributes: ['soy wax', 'long lasting', 'lead free wick', 'natural', 'hand poured', 'non toxic',
      'essential oils', 'clean burning', 'wood wick', 'vegan', 'phthalate free', 'gift set'],
    options: [
      { name: 'scent', values: ['vanilla bean', 'eucalyptus mint', 'sandalwood', 'fresh linen', 'lemongrass', 'pumpkin spice'] },
      { name: 'size', values: ['4 oz', '8 oz', '12 oz', '3 pack'] },
    ],
    price: [7, 69],
    brands: ['glowhaus', 'ember & oak', 'wickwell', 'lumina', 'calmhouse', 'hearthstone'],
    blurbs: ['fills a room with a warm glow', 'an even, slow burn', 'poured into a reusable vessel'],
  },
];

/** Words that carry no meaning for WebShop's title-overlap test of `r_type`. */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'the', 'for', 'with', 'of', 'in', 'on', 'to', 'by', 'from', 'or', 'at', 'as', 'is', 'it',
  'its', 'this', 'that', 'i', 'me', 'my',
]);
