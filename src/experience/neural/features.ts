/**
 * A row of a head's features: dense numbers plus hashed features, each one of a head's buckets.
 *
 * A hashed feature is a short text (`kv option click`). Most are written as their words, to be
 * joined by single spaces: a head's rows are hashed by the thousand per prediction, and a text built
 * anew for each row had to be made into one flat string before it could be hashed, which cost more
 * than all the row's other work. Hashed from its words, a feature lands in the bucket its text would
 * (hashWords); `featureText` spells it for people and tests.
 */
import { hashString, hashWords } from '../../core/rng.ts';

/** A hashed feature: its text, or its words to be joined by single spaces. */
export type HashedFeature = string | readonly string[];

export interface Features {
  dense: number[];
  hashed: HashedFeature[];
}

/** The text a hashed feature stands for. */
export function featureText(feature: HashedFeature): string {
  return typeof feature === 'string' ? feature : feature.join(' ');
}

/** A feature's bucket in [0, buckets): the project's one string hash (FNV-1a) of its text. */
export function hashBucket(feature: HashedFeature, buckets: number): number {
  return (typeof feature === 'string' ? hashString(feature) : hashWords(feature)) % buckets;
}
