/**
 * The chat's word and link filters. Blocked terms match whole words whatever the case, accents,
 * full-width letters and common look-alikes (`h4te`, `hât3`, `ｈａｔｅ` are all `hate`). The rules are
 * compiled once per change into a set of folded words, so screening a message is one pass over its
 * characters and one set lookup per word.
 */

export type FilterAction = "block" | "mask";

export interface FilterRules {
  blockedTerms: readonly string[];
  filterAction: FilterAction;
  blockLinks: boolean;
}

export type ScreenResult = { kind: "ok"; text: string; masked: boolean } | { kind: "blocked"; term: string } | { kind: "link" };

export interface ChatFilter {
  /** False when there is nothing to screen for, so the chat can skip the filter entirely. */
  readonly active: boolean;
  /** Screens a cleaned chat line; `allowLinks` for moderators and admins. */
  screen(text: string, allowLinks: boolean): ScreenResult;
}

// Letters and digits that stand in for others, folded to one spelling on both sides of the match.
const LOOKALIKES: Record<string, string> = {
  "0": "o",
  "1": "i",
  l: "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "@": "a",
  $: "s",
  // Cyrillic and Greek letters that look like Latin ones.
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  х: "x",
  у: "y",
  і: "i",
  ѕ: "s",
  ј: "j",
  ԁ: "d",
  к: "k",
  м: "m",
  т: "t",
  в: "b",
  н: "h",
  һ: "h",
  α: "a",
  ε: "e",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
};
// "!" and "|" stand for "i" only inside a word (`k!ll`), never at its end (`hate!`): see foldWords.
const WORD_CHARACTER = /^[\p{L}\p{N}]+$/u;
const MARKS = /\p{M}/gu;
const MARK = /^\p{M}$/u;

const foldCache = new Map<string, string>();
const FOLD_CACHE_LIMIT = 20_000;

/** One character folded for matching: "" when it is no part of a word (space, punctuation, a mark). */
function fold(ch: string): string {
  let folded = foldCache.get(ch);
  if (folded !== undefined) return folded;
  const base = ch.normalize("NFKD").replace(MARKS, "").toLowerCase();
  folded = "";
  for (const c of base) {
    const mapped = LOOKALIKES[c] ?? c;
    if (WORD_CHARACTER.test(mapped)) folded += mapped;
  }
  if (foldCache.size < FOLD_CACHE_LIMIT) foldCache.set(ch, folded);
  return folded;
}

/** The folded form of each ASCII character, so the common case is one array read. */
const ASCII_FOLD = Array.from({ length: 128 }, (_, code) => fold(String.fromCharCode(code)));

/** Whether the character at `i` starts a word character (for `h!te`). */
function isWordAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code < 128 ? ASCII_FOLD[code] !== "" : fold(String.fromCodePoint(text.codePointAt(i)!)) !== "";
}

interface Word {
  folded: string;
  /** Its span in the original text (UTF-16 offsets). */
  start: number;
  end: number;
}

/** The words of a text, folded, with where each sits in the original. */
export function foldWords(text: string): Word[] {
  const words: Word[] = [];
  let folded = "";
  let start = 0;
  let end = 0;
  const flush = () => {
    if (folded) words.push({ folded, start, end });
    folded = "";
  };
  for (let i = 0; i < text.length;) {
    const unit = text.charCodeAt(i);
    let next: number;
    let part: string;
    let ch = "";
    if (unit < 128) {
      next = i + 1;
      part = ASCII_FOLD[unit]!;
      if (!part && folded && (unit === 33 || unit === 124) && next < text.length && isWordAt(text, next)) part = "i";
    } else {
      ch = String.fromCodePoint(text.codePointAt(i)!);
      next = i + ch.length;
      part = fold(ch);
    }
    if (part) {
      if (!folded) start = i;
      folded += part;
      end = next;
    } else if (!ch || !MARK.test(ch)) {
      flush();
    }
    i = next;
  }
  flush();
  return words;
}

// A scheme or www., or a host name ending in a common top-level domain (with or without a path).
const LINK =
  /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)\S|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|gg|tv|co|uk|us|me|ly|be|app|dev|xyz|info|biz|link|site|online|live|ru|de|fr|ca|au|to|cc|tk|ml|ga|cf|gq|club|shop|store|fun|top|pro|gl|page|tech|stream|chat|sh|so|vc|ws|in|nl|eu|it|es|pl|br|jp|cn|kr|gd|lol|xxx|porn|tk|su)\b/i;

const ASCII_ONLY = /^[\x00-\x7f]*$/;
// Every address the pattern finds has a dot or a slash, in ASCII or full width.
const LINK_SIGN = /[./\uff0e\uff0f\u3002\uff61]/;

/** Whether the text holds a web address (full-width and other compatibility forms included). */
export function containsLink(text: string): boolean {
  if (!LINK_SIGN.test(text)) return false;
  return LINK.test(text) || (!ASCII_ONLY.test(text) && LINK.test(text.normalize("NFKC")));
}

/** Folds a configured term into its words (a term may be a phrase). */
function termWords(term: string): string[] {
  return foldWords(term).map((w) => w.folded);
}

/** Compiles the rules into a filter; call again when they change. */
export function compileChatFilter(rules: FilterRules): ChatFilter {
  // One lookup per word: is it a blocked term, and which blocked phrases start with it.
  const byFirstWord = new Map<string, { term: string | null; phrases: { words: string[]; term: string }[] }>();
  const entry = (word: string) => {
    let found = byFirstWord.get(word);
    if (!found) byFirstWord.set(word, (found = { term: null, phrases: [] }));
    return found;
  };
  for (const term of rules.blockedTerms) {
    const words = termWords(term);
    if (words.length === 1) entry(words[0]!).term = term;
    else if (words.length > 1) entry(words[0]!).phrases.push({ words, term });
  }
  const hasTerms = byFirstWord.size > 0;
  const active = hasTerms || rules.blockLinks;

  /** Spans of the text that are blocked terms, and the first term found. */
  const matches = (text: string): { spans: [number, number][]; term: string | null } => {
    const words = foldWords(text);
    const spans: [number, number][] = [];
    let first: string | null = null;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const found = byFirstWord.get(word.folded);
      if (!found) continue;
      if (found.term !== null) {
        spans.push([word.start, word.end]);
        first ??= found.term;
        continue;
      }
      for (const phrase of found.phrases) {
        const last = i + phrase.words.length - 1;
        if (last < words.length && phrase.words.every((w, k) => words[i + k]!.folded === w)) {
          spans.push([word.start, words[last]!.end]);
          first ??= phrase.term;
          break;
        }
      }
    }
    return { spans, term: first };
  };

  return {
    active,
    screen(text, allowLinks) {
      if (!active) return { kind: "ok", text, masked: false };
      if (rules.blockLinks && !allowLinks && containsLink(text)) return { kind: "link" };
      if (!hasTerms) return { kind: "ok", text, masked: false };
      const { spans, term } = matches(text);
      if (term === null) return { kind: "ok", text, masked: false };
      if (rules.filterAction === "block") return { kind: "blocked", term };
      let masked = "";
      let from = 0;
      for (const [start, end] of spans) {
        masked += text.slice(from, start) + text.slice(start, end).replace(/\S/gu, "*");
        from = end;
      }
      return { kind: "ok", text: masked + text.slice(from), masked: true };
    },
  };
}
