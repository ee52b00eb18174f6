/** How a catalogue string (core/i18n/) takes its values and its count. */
import type { Plural } from './catalogue.ts';

/** `template` with each `{name}` replaced by its value. */
export function fill(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for {${name}} in "${template}"`);
    return String(value);
  });
}

/** The form of `forms` for `count`: "one" for exactly 1, "other" for every other count. */
export function choosePlural(forms: Plural, count: number): string {
  return count === 1 ? forms.one : forms.other;
}
