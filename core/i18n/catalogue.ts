/**
 * What a catalogue is: English's keys (core/i18n/en.ts), every one of them, each of the same kind. A
 * catalogue that misses a key, or adds one, fails the type check; tests/core/i18n.test.ts also compares
 * their plural forms and placeholders, so `npm test` fails too.
 */
import type { en } from './en.ts';

/** A count's words: "one" for exactly 1, "other" for every other count; `{count}` is the count. */
export type Plural = { one: string; other: string };

export type Catalogue = typeof en;
