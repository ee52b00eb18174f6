/**
 * Splits review text into sentences of lowercase tokens with their character offsets.
 *
 * Rules: a token is a run of letters/digits (with `$`), joined across inner apostrophes, hyphens,
 * slashes, dots and colons ("didn't", "no-show", "24/7", "8:15", "$1.50"). Sentences end at `.`, `!`,
 * `?`, `;` and line breaks. Commas, colons and dashes stay in the sentence as `pause` tokens: they do
 * not end a clause on their own, but they close a concessive clause and weigh on how far an opinion
 * may travel to its aspect.
 */

export type Token = {
  /** Lowercase text, curly apostrophes straightened. */
  text: string;
  start: number;
  end: number;
  pause: boolean;
};

export type Sentence = {
  start: number;
  end: number;
  tokens: Token[];
};

const TOKEN_PATTERN = /[\p{L}\p{N}$]+(?:['’\-/.:][\p{L}\p{N}]+)*|[.!?;]+|[,:—–]|(?<=\s)-(?=\s)|\n/gu;

/** Tokenizes a term from content/aspects.json the same way review text is tokenized. */
export function tokenizeTerm(term: string): string[] {
  return tokenizeText(term).flatMap((sentence) => sentence.tokens.map((token) => token.text));
}

export function tokenizeText(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let tokens: Token[] = [];
  let sentenceStart = -1;
  let sentenceEnd = -1;
  const close = () => {
    if (tokens.length > 0) sentences.push({ start: sentenceStart, end: sentenceEnd, tokens });
    tokens = [];
    sentenceStart = -1;
  };
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const raw = match[0];
    const start = match.index;
    const first = raw.charCodeAt(0);
    // '.', '!', '?', ';' and newline end a sentence; the punctuation belongs to it.
    if (first === 46 || first === 33 || first === 63 || first === 59 || first === 10) {
      if (tokens.length > 0 && first !== 10) sentenceEnd = start + raw.length;
      close();
      continue;
    }
    const pause = first === 44 || first === 58 || first === 0x2014 || first === 0x2013 || raw === '-';
    if (pause && tokens.length === 0) continue;
    if (sentenceStart < 0) sentenceStart = start;
    sentenceEnd = start + raw.length;
    tokens.push({ text: pause ? ',' : raw.toLowerCase().replaceAll('’', "'"), start, end: start + raw.length, pause });
  }
  close();
  return sentences;
}
