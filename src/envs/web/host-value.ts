/**
 * The key the page driver's `forHost` tags a number with that JSON cannot carry (NaN, the
 * infinities), for a host that takes the page's answers as JSON-like values (the Node host). Its
 * own module: the driver is bundled into every page, and imports nothing it does not need.
 */
export const HOST_NUMBER_TAG = '__dreamgymNumber';
