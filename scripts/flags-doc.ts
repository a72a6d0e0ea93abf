/**
 * The flag reference, docs/flags.md, made from src/config-flags.ts (each flag's value, environment
 * variable, default and what it does), so that it cannot drift from what the server reads: `npm run
 * docs:flags` writes it, and a test fails while the file differs from what this renders.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FLAG_DOCS, FLAGS } from "../src/config-flags.ts";

export const FLAGS_DOC_PATH = join(import.meta.dir, "../docs/flags.md");

const envName = (flag: string) => `DREADCAST_${flag.toUpperCase().replace(/-/g, "_")}`;
const cell = (text: string) => text.replace(/\|/g, "\\|");

export function renderFlagsDoc(): string {
  const rows = Object.entries(FLAGS).map(([name, spec]) => {
    const docs = FLAG_DOCS[name as keyof typeof FLAG_DOCS];
    const flag = `\`--${name}${spec.value ? ` ${spec.value}` : ""}\``;
    return `| ${cell(flag)} | \`${envName(name)}\` | ${cell(docs.default)} | ${cell(docs.doc)} |`;
  });
  return [
    "# Flags",
    "",
    "<!-- Made from src/config-flags.ts by `npm run docs:flags`; edit the flags there, not here. -->",
    "",
    "`dreadcast [flags]` serves the site. Every flag is also an environment variable (the flag wins over the",
    "variable, the variable over the default). `dreadcast --help` lists them too, one line each.",
    "",
    "| flag | variable | default | what it does |",
    "|---|---|---|---|",
    ...rows,
    "| `--help`, `--version` | | | the flags, one line each; the version and build |",
    "",
    "A bad flag or value prints one line on stderr and exits with code 2 — so does a value still holding a",
    "placeholder of the shipped examples (a `CHANGE_ME`, or a host under example.com, .net or .org, such as",
    "`https://live.example.com` or `tickets@example.com`), naming its variable or flag.",
    "",
    "The commands beside serving (`admin`, `backup`, `restore`, `migrate-data`) are in [Install, run and deploy](install.md#running).",
    "",
    "[← All the guides](README.md)",
    "",
  ].join("\n");
}

if (import.meta.main) {
  writeFileSync(FLAGS_DOC_PATH, renderFlagsDoc());
  console.log(`wrote ${FLAGS_DOC_PATH}`);
}
