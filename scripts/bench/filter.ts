/**
 * The chat filter's cost per message, in process: 500 blocked terms (some of them phrases), a mix of chat
 * lines (plain, accented, full-width, look-alike digits, emoji, links), screened in block and mask mode
 * with links blocked. The rules are compiled once, as the server does per change.
 */
import { compileChatFilter, type FilterAction } from "../../src/modules/chat/filters.ts";

/** A seeded generator, so every run screens the same lines. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const CHAT_WORDS = ["the", "lights", "went", "out", "did", "you", "hear", "that", "behind", "door", "run", "scream", "who", "is", "there", "lol", "omg", "so", "scary", "camera", "three", "basement", "again", "no", "way", "chat", "ghost", "look", "left", "😱", "🔥"];

export function filterWorkload(terms = 500, lines = 2000, seed = 13) {
  const random = prng(seed);
  const word = (min: number, max: number) => Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => LETTERS[Math.floor(random() * 26)]).join("");
  const blocked = Array.from({ length: terms }, (_, i) => (i % 10 === 0 ? `${word(3, 7)} ${word(3, 7)}` : word(4, 10)));
  const disguise = (w: string) => (random() < 0.5 ? w.replace(/a/g, "4").replace(/e/g, "3") : w.toUpperCase().replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)));
  const messages = Array.from({ length: lines }, () => {
    const words = Array.from({ length: 3 + Math.floor(random() * 14) }, () => CHAT_WORDS[Math.floor(random() * CHAT_WORDS.length)]!);
    const roll = random();
    if (roll < 0.1) words.splice(Math.floor(random() * words.length), 0, disguise(blocked[Math.floor(random() * terms)]!.split(" ")[0]!));
    else if (roll < 0.15) words.push("see scary.tv/live");
    else if (roll < 0.25) words.push("crème brûlée", "naïve");
    return words.join(" ").slice(0, 200);
  });
  return { blocked, messages };
}

export interface FilterFigures {
  terms: number;
  compileMs: number;
  /** µs per message by mode (best batch). */
  perMessageUs: Record<FilterAction, number>;
  /** Lines the block filter refuses (disguised terms and links). */
  caught: number;
}

/** Best of `batches` timed passes (a shared machine's other work only ever adds time). */
export function benchFilter(terms = 500, batches = 20): FilterFigures {
  const { blocked, messages } = filterWorkload(terms);
  const compileStart = performance.now();
  const filters = {
    block: compileChatFilter({ blockedTerms: blocked, filterAction: "block", blockLinks: true }),
    mask: compileChatFilter({ blockedTerms: blocked, filterAction: "mask", blockLinks: true }),
  };
  const compileMs = (performance.now() - compileStart) / 2;
  const perMessageUs = { block: 0, mask: 0 };
  let caught = 0;
  for (const mode of ["block", "mask"] as const) {
    const filter = filters[mode];
    for (const text of messages) if (filter.screen(text, false).kind !== "ok" && mode === "block") caught++;
    let best = Infinity;
    for (let b = 0; b < batches; b++) {
      const start = performance.now();
      for (let pass = 0; pass < 5; pass++) for (const text of messages) filter.screen(text, false);
      best = Math.min(best, ((performance.now() - start) * 1000) / (5 * messages.length));
    }
    perMessageUs[mode] = best;
  }
  return { terms, compileMs, perMessageUs, caught };
}
