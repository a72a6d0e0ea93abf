import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { ConfigError, examplePlaceholder, FLAGS, parseServeArgs } from "../../src/config.ts";
import { runCli } from "../support/cli.ts";
import { startServer } from "../support/server.ts";

/**
 * The deployment examples under deploy/ name flags, DREADCAST_* variables and health paths of the server;
 * these tests keep them in step with it, so that a renamed or misspelt flag fails here and not at 3 a.m.
 */

const ROOT = resolve(import.meta.dir, "../..");
const DEPLOY = join(ROOT, "deploy");

/** What the bare command accepts besides the serve flags. */
const GLOBAL_FLAGS = ["help", "version"];
/** The flags of the subcommands (src/cli), each of which also takes --data-dir. */
const SUBCOMMAND_FLAGS: Record<string, string[]> = {
  "migrate-data": ["to", "data-dir"],
  backup: ["database-url", "passphrase-file", "without-key", "recordings-url", "data-dir"],
  restore: ["passphrase-file", "database-url", "data-dir"],
  admin: ["username", "email", "password", "role", "database-url", "data-dir"],
};
/** The health endpoints the server answers (src/modules/health). */
const HEALTH_PATHS = ["/healthz", "/readyz"];

interface DeployFile {
  path: string;
  text: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const files: DeployFile[] = filesUnder(DEPLOY).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, "utf8") }));

/**
 * The word `dreadcast` used as a command: at the start of a line or after a space, quote, backtick, `=`
 * (ExecStart=) or `(`, bare or as a path in a bin/ or dist/ folder, and followed by a space or the end.
 * Not `dreadcast@3001`, `dreadcast:local`, `dreadcast-1` or `/var/lib/dreadcast`.
 */
const COMMAND = /(?<=^|[\s"'`=(])(?:\S*\/bin\/|(?:\.\/)?dist\/)?dreadcast(?=\s|$)/g;
/** Where the arguments of a command on a shell or Markdown line end. */
const COMMAND_END = /[|;&`)#]|\s\/\/\s/;

/** Lines with shell continuations (a trailing backslash) joined. */
function logicalLines(text: string): string[] {
  return text.replace(/[ \t]*\\\r?\n[ \t]*/g, " ").split(/\r?\n/);
}

/** The name of a `--flag` or `--flag=value` token, with any quotes around it removed. */
function flagName(token: string): string | null {
  const match = /^--([A-Za-z0-9][A-Za-z0-9-]*)(?:=|$)/.exec(token.replace(/^["'[]+|["',\]]+$/g, ""));
  return match ? match[1]! : null;
}

/** Whether `name` is a flag of the subcommand, or with none of the server. */
function knownFlag(name: string, subcommand: string | null): boolean {
  if (subcommand) return SUBCOMMAND_FLAGS[subcommand]!.includes(name);
  return name in FLAGS || GLOBAL_FLAGS.includes(name);
}

/** Every `dreadcast ...` command line in `text`: its subcommand (or null) and the flag names it passes. */
function commandLines(text: string): { line: string; subcommand: string | null; flags: string[] }[] {
  const found: { line: string; subcommand: string | null; flags: string[] }[] = [];
  for (const line of logicalLines(text)) {
    const starts = [...line.matchAll(COMMAND)];
    starts.forEach((start, i) => {
      const from = start.index! + start[0].length;
      let args = line.slice(from, i + 1 < starts.length ? starts[i + 1]!.index : undefined);
      const end = COMMAND_END.exec(args);
      if (end) args = args.slice(0, end.index);
      const tokens = args.trim().split(/\s+/).filter(Boolean);
      const subcommand = tokens[0] && tokens[0] in SUBCOMMAND_FLAGS ? tokens[0] : null;
      const flags = tokens.map(flagName).filter((name): name is string => name !== null);
      found.push({ line: line.trim(), subcommand, flags });
    });
  }
  return found;
}

/** The flags given to the server by the compose services that run the dreadcast image (its entrypoint). */
function composeCommands(text: string): { service: string; flags: string[] }[] {
  const doc = Bun.YAML.parse(text) as { services?: Record<string, { image?: string; build?: unknown; command?: string | string[] }> };
  return Object.entries(doc.services ?? {})
    .filter(([, service]) => service.build !== undefined || /^dreadcast(?::|$)/.test(service.image ?? ""))
    .map(([name, service]) => {
      const command = service.command ?? [];
      const tokens = typeof command === "string" ? command.split(/\s+/) : command;
      return { service: name, flags: tokens.map(flagName).filter((flag): flag is string => flag !== null) };
    });
}

/** Flags of `text` (a file under deploy/) that dreadcast does not know, as `file: --flag in <line>`. */
function unknownFlags(file: DeployFile): string[] {
  const problems: string[] = [];
  for (const { line, subcommand, flags } of commandLines(file.text)) {
    for (const flag of flags) if (!knownFlag(flag, subcommand)) problems.push(`${file.path}: --${flag} in ${line}`);
  }
  if (/\.ya?ml$/.test(file.path)) {
    for (const { service, flags } of composeCommands(file.text)) {
      for (const flag of flags) if (!knownFlag(flag, null)) problems.push(`${file.path}: --${flag} in the command of ${service}`);
    }
  }
  return problems;
}

/** DREADCAST_* names of `text` that are not the variable of a flag (DREADCAST_DATA_DIR is --data-dir). */
function unknownEnvNames(text: string): string[] {
  const names = text.match(/\bDREADCAST_[A-Z0-9_]+\b/g) ?? [];
  return names.filter((name) => !(name.slice("DREADCAST_".length).toLowerCase().replace(/_/g, "-") in FLAGS));
}

/**
 * Paths that look like a health endpoint (/health, /healthz, /ready, /livez, /alive, …) and that the server
 * does not answer. A folder such as /etc/letsencrypt/live/ is not one.
 */
function unknownHealthPaths(text: string): string[] {
  const paths = text.match(/\/(?:health|ready|live|alive)[A-Za-z_-]*(?![\w/-]|\.\w)/g) ?? [];
  const caddy = [...text.matchAll(/\bhealth_uri\s+(\S+)/g)].map((m) => m[1]!);
  return [...new Set([...paths, ...caddy])].filter((path) => !HEALTH_PATHS.includes(path));
}

describe("the checks of the deployment examples", () => {
  test("find a misspelt flag on a command line, in ExecStart and in a compose command", () => {
    const unit = { path: "x.service", text: "ExecStart=/usr/local/bin/dreadcast --host 127.0.0.1 --redis-uri redis://r" };
    expect(unknownFlags(unit)).toEqual(["x.service: --redis-uri in ExecStart=/usr/local/bin/dreadcast --host 127.0.0.1 --redis-uri redis://r"]);
    const shell = { path: "README.md", text: "```sh\n./dist/dreadcast --port 3001 \\\n  --metric-token abcdefghijklmnopq\n```\n" };
    expect(unknownFlags(shell)).toEqual(["README.md: --metric-token in ./dist/dreadcast --port 3001 --metric-token abcdefghijklmnopq"]);
    const compose = { path: "c.yaml", text: 'services:\n  a:\n    image: dreadcast:local\n    command: ["--instance-name", "a", "--databse-url=postgres://db/x"]\n' };
    expect(unknownFlags(compose)).toEqual(["c.yaml: --databse-url in the command of a"]);
  });

  test("tell a subcommand's flags and other programs' flags from the server's", () => {
    const ok = [
      "`dreadcast migrate-data --to postgres://db/x --data-dir /var/lib/dreadcast`",
      "dreadcast admin create --username a --email a@b.co --password secret1",
      "useradd --system --home-dir /var/lib/dreadcast --shell /usr/sbin/nologin dreadcast",
      "systemctl enable --now dreadcast@3001",
      "sudo -u dreadcast dreadcast --help",
      'command: ["redis-server", "--save", "", "--appendonly", "no"]',
    ];
    expect(unknownFlags({ path: "ok.md", text: ok.join("\n") })).toEqual([]);
    expect(unknownFlags({ path: "bad.md", text: "dreadcast migrate-data --from /data" })).toEqual(["bad.md: --from in dreadcast migrate-data --from /data"]);
    expect(unknownFlags({ path: "bad.md", text: "dreadcast --to postgres://db/x" })).toEqual(["bad.md: --to in dreadcast --to postgres://db/x"]);
  });

  test("find an unknown DREADCAST_ variable and a health path the server does not answer", () => {
    expect(unknownEnvNames("DREADCAST_REDIS_URL=redis://r\nDREADCAST_REDIS_URI=redis://r\n  DREADCAST_TRUST_PROXY: 10.0.0.1")).toEqual(["DREADCAST_REDIS_URI"]);
    expect(
      unknownHealthPaths("health_uri /readyz\nhealth_uri /health\ncurl http://127.0.0.1:3001/livez\nssl_certificate /etc/letsencrypt/live/x/fullchain.pem;\npoll /healthz."),
    ).toEqual(["/health", "/livez"]);
    expect(unknownHealthPaths("health_uri /status")).toEqual(["/status"]);
  });
});

describe("deploy/", () => {
  test("holds the cluster examples and the single server's", () => {
    expect(files.map((f) => f.path).sort()).toEqual(
      expect.arrayContaining([
        "deploy/README.md",
        "deploy/cluster/Caddyfile",
        "deploy/cluster/Caddyfile.compose",
        "deploy/cluster/compose.yaml",
        "deploy/cluster/nginx.conf",
        "deploy/cluster/systemd/cluster.env.example",
        "deploy/cluster/systemd/dreadcast@.service",
        "deploy/single/dreadcast.env.example",
        "deploy/single/dreadcast.service",
      ]),
    );
  });

  test("every flag given to dreadcast is one it knows, here and in the recipes of the README and the guides", () => {
    expect(files.flatMap(unknownFlags)).toEqual([]);
    const guides = [
      "README.md",
      "CONTRIBUTING.md",
      ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.flatMap((path) => unknownFlags({ path, text: readFileSync(join(ROOT, path), "utf8") }))).toEqual([]);
  });

  test("the flags checked include the unit's ExecStart and the compose services' commands", () => {
    const unit = files.find((f) => f.path.endsWith("dreadcast@.service"))!;
    const execStart = commandLines(unit.text).find((c) => c.line.startsWith("ExecStart="));
    expect(execStart?.flags).toEqual(["host", "port", "rtmp-port", "instance-name", "data-dir"]);
    const compose = files.find((f) => f.path.endsWith("compose.yaml"))!;
    const services = composeCommands(compose.text);
    expect(services.map((s) => s.service)).toEqual(["dreadcast-1", "dreadcast-2", "dreadcast-3"]);
    for (const { flags } of services) expect(flags).toEqual(["instance-name", "internal-url"]);
  });

  test("every DREADCAST_ variable is the variable of a flag", () => {
    const all = files.flatMap((f) => unknownEnvNames(f.text).map((name) => `${f.path}: ${name}`));
    expect(all).toEqual([]);
    const env = files.find((f) => f.path.endsWith("cluster.env.example"))!;
    for (const name of ["DREADCAST_DATABASE_URL", "DREADCAST_REDIS_URL", "DREADCAST_PUBLIC_URL", "DREADCAST_TRUST_PROXY", "DREADCAST_METRICS_TOKEN", "DREADCAST_RECORDINGS_URL"]) {
      expect(env.text).toMatch(new RegExp(`^${name}=\\S`, "m"));
    }
  });

  test("every health path is one the server answers, and the balancers check /readyz", () => {
    expect(files.flatMap((f) => unknownHealthPaths(f.text).map((path) => `${f.path}: ${path}`))).toEqual([]);
    for (const name of ["Caddyfile", "Caddyfile.compose"]) {
      const caddy = files.find((f) => f.path === `deploy/cluster/${name}`)!;
      expect(caddy.text).toMatch(/^\s*health_uri \/readyz$/m);
    }
    const compose = files.find((f) => f.path.endsWith("compose.yaml"))!;
    expect(compose.text).toContain("GET /readyz HTTP/1.0");
  });
});

/** The DREADCAST_* lines of an env file, as systemd's EnvironmentFile reads them. */
function envFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^(DREADCAST_[A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** The one-line refusal of parseServeArgs for `env`, or null when it is accepted. */
function refusal(env: Record<string, string>): string | null {
  try {
    parseServeArgs([], env);
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

describe("cluster.env.example left as it is", () => {
  const example = envFile(files.find((f) => f.path.endsWith("cluster.env.example"))!.text);
  /** What an operator fills in: real-looking values of the same shapes. */
  const filledIn: Record<string, string> = {
    DREADCAST_DATABASE_URL: "postgres://dreadcast:9f2c7d1e@db.internal:5432/dreadcast",
    DREADCAST_PUBLIC_URL: "https://night.hauntedhouse.tv",
    DREADCAST_STRIPE_SECRET_KEY: "sk_live_51Habcdefghijklmnop",
    DREADCAST_STRIPE_PUBLISHABLE_KEY: "pk_live_51Habcdefghijklmnop",
    DREADCAST_STRIPE_WEBHOOK_SECRET: "whsec_0123456789abcdef",
    DREADCAST_SMTP_URL: "smtps://tickets:9f2c7d1e@smtp.hauntedhouse.tv",
    DREADCAST_MAIL_FROM: "tickets@hauntedhouse.tv",
    DREADCAST_METRICS_TOKEN: "4b0f9e1c2d3a4b5c6d7e8f90a1b2c3d4e5f60718",
    DREADCAST_SECRET_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
    DREADCAST_RECORDINGS_URL: "s3://hauntedhouse-recordings/night",
    DREADCAST_S3_ENDPOINT: "https://4f9c2d.r2.cloudflarestorage.com",
    DREADCAST_S3_ACCESS_KEY_ID: "AKIA4F9C2D7E1B3A5C6D",
    DREADCAST_S3_SECRET_ACCESS_KEY: "9f2c7d1e4b0f9e1c2d3a4b5c6d7e8f90a1b2c3d4",
  };

  test("is refused by the server in one line naming the first placeholder, exit 2", async () => {
    const { code, stdout, stderr } = await runCli(["--data-dir", DEPLOY], example);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe("dreadcast: DREADCAST_DATABASE_URL is still the example's placeholder 'CHANGE_ME': put in the real value\n");
  });

  test("each placeholder is refused on its own, by its variable or its flag; filled in, the example is accepted", () => {
    expect(Object.keys(filledIn).every((name) => name in example)).toBe(true);
    expect(refusal({ ...example, ...filledIn })).toBeNull();
    const placeholders: Record<string, string> = {
      DREADCAST_DATABASE_URL: "CHANGE_ME",
      DREADCAST_PUBLIC_URL: "live.example.com",
      DREADCAST_STRIPE_SECRET_KEY: "sk_live_CHANGE_ME",
      DREADCAST_STRIPE_PUBLISHABLE_KEY: "pk_live_CHANGE_ME",
      DREADCAST_STRIPE_WEBHOOK_SECRET: "whsec_CHANGE_ME",
      DREADCAST_SMTP_URL: "CHANGE_ME",
      DREADCAST_MAIL_FROM: "example.com",
      DREADCAST_METRICS_TOKEN: "CHANGE_ME_TO_A_LONG_RANDOM_TOKEN",
      DREADCAST_SECRET_KEY: "CHANGE_ME",
      DREADCAST_RECORDINGS_URL: "CHANGE_ME",
      DREADCAST_S3_ENDPOINT: "s3.example.com",
      DREADCAST_S3_ACCESS_KEY_ID: "CHANGE_ME",
      DREADCAST_S3_SECRET_ACCESS_KEY: "CHANGE_ME",
    };
    for (const [name, placeholder] of Object.entries(placeholders)) {
      expect(refusal({ ...example, ...filledIn, [name]: example[name]! })).toBe(`${name} is still the example's placeholder '${placeholder}': put in the real value`);
    }
    // The SMTP host of the example, with a real password, is still the example's.
    expect(refusal({ ...filledIn, DREADCAST_SMTP_URL: "smtps://user:9f2c7d1e@mail.example.com" })).toContain("'mail.example.com'");
    // A flag given over the file's placeholder is what counts, and is what a refusal names.
    const flag = ["--metrics-token", "4b0f9e1c2d3a4b5c6d7e8f90a1b2c3d4"];
    expect(() => parseServeArgs(flag, { ...filledIn, DREADCAST_METRICS_TOKEN: example.DREADCAST_METRICS_TOKEN! })).not.toThrow();
    expect(() => parseServeArgs(["--public-url", "https://live.example.com"], filledIn)).toThrow("--public-url is still the example's placeholder 'live.example.com'");
  });
});

/** The arguments systemd gives the program of a unit's ExecStart, `${NAME}` replaced from `vars`. */
function execStartArgs(unit: string, vars: Record<string, string>): string[] {
  const line = logicalLines(unit).find((l) => l.startsWith("ExecStart="))!;
  return line
    .slice("ExecStart=".length)
    .replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => vars[name]!)
    .split(/\s+/)
    .slice(1);
}

describe("the single-server unit", () => {
  const unit = files.find((f) => f.path === "deploy/single/dreadcast.service")!;
  const env = files.find((f) => f.path === "deploy/single/dreadcast.env.example")!;
  const credentials = mkdtempSync(join(tmpdir(), "dreadcast-credentials-"));
  writeFileSync(join(credentials, "backup.pass"), "wormwood lantern cellar 1907\n");

  test("runs the server on SQLite with a backup every hour into a state directory of its own, the passphrase a credential", () => {
    expect(unit.text).toMatch(/^EnvironmentFile=\/etc\/dreadcast\/dreadcast\.env$/m);
    expect(unit.text).toMatch(/^LoadCredential=backup\.pass:\/etc\/dreadcast\/backup\.pass$/m);
    const states = /^StateDirectory=(.+)$/m
      .exec(unit.text)![1]!
      .split(/\s+/)
      .map((name) => `/var/lib/${name}`);
    expect(envFile(env.text)).toHaveProperty("DREADCAST_PUBLIC_URL");
    const config = parseServeArgs(execStartArgs(unit.text, { CREDENTIALS_DIRECTORY: credentials }), { DREADCAST_PUBLIC_URL: "https://night.hauntedhouse.tv" });
    expect(config.dataDir).toBe(states[0]!);
    expect(config.backupTo).toBe(states[1]!);
    expect(config.backupEveryMs).toBe(3_600_000);
    expect(config.backupKeep).toBe(48);
    expect(config.backupDays).toBe(14);
    expect(config.backupPassphrase).toBe("wormwood lantern cellar 1907");
    expect(config.databaseUrl).toBeNull();
    expect([config.host, config.port]).toEqual(["127.0.0.1", 3000]);
  });

  test("its settings file is refused while it holds a placeholder, and accepted filled in", () => {
    const args = execStartArgs(unit.text, { CREDENTIALS_DIRECTORY: credentials });
    const example = envFile(env.text);
    expect(() => parseServeArgs(args, example)).toThrow("is still the example's placeholder");
    const filledIn = {
      DREADCAST_PUBLIC_URL: "https://night.hauntedhouse.tv",
      DREADCAST_STRIPE_SECRET_KEY: "sk_live_51Habcdefghijklmnop",
      DREADCAST_STRIPE_PUBLISHABLE_KEY: "pk_live_51Habcdefghijklmnop",
      DREADCAST_STRIPE_WEBHOOK_SECRET: "whsec_0123456789abcdef",
      DREADCAST_SMTP_URL: "smtps://tickets:9f2c7d1e@smtp.hauntedhouse.tv",
      DREADCAST_MAIL_FROM: "tickets@hauntedhouse.tv",
      DREADCAST_METRICS_TOKEN: "4b0f9e1c2d3a4b5c6d7e8f90a1b2c3d4e5f60718",
    };
    expect(Object.keys(example).sort()).toEqual(Object.keys(filledIn).sort());
    expect(() => parseServeArgs(args, filledIn)).not.toThrow();
  });
});

/** The names a recipe sets (`NAME=value`, in a printf or a here-document), from the comment lines at the top of a file or a Markdown block. */
const namesSet = (text: string): Set<string> => new Set([...text.replaceAll("\\n", "\n").matchAll(/(?<![\w$])([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!));

describe("the compose file", () => {
  const compose = files.find((f) => f.path.endsWith("compose.yaml"))!;
  const doc = Bun.YAML.parse(compose.text) as {
    services: Record<string, { build?: unknown; environment?: Record<string, string | null>; ports?: string[]; volumes?: string[] }>;
    volumes: Record<string, unknown>;
  };
  const instances = Object.entries(doc.services).filter(([, service]) => service.build !== undefined);
  const required = [...new Set([...compose.text.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]!))];

  test("its recipes, at its top and in deploy/README.md, set every variable it requires, with no example's placeholder", () => {
    expect(required.sort()).toEqual(["POSTGRES_PASSWORD", "RECORDINGS_URL", "SECRET_KEY", "SITE_ADDRESS"]);
    const header = compose.text.slice(0, compose.text.indexOf("docker compose up"));
    const readme = files.find((f) => f.path === "deploy/README.md")!.text;
    const section = readme.slice(readme.indexOf("## Docker Compose"));
    const recipe = section.slice(section.indexOf("```sh"), section.indexOf("docker compose up"));
    for (const [name, text] of [
      ["compose.yaml", header],
      ["deploy/README.md", recipe],
    ] as const) {
      expect({ name, missing: required.filter((v) => !namesSet(text).has(v)) }).toEqual({ name, missing: [] });
      expect({ name, placeholders: [...text.matchAll(/[A-Z_]+=([^\s'\\]+)/g)].map((m) => examplePlaceholder(m[1]!)).filter(Boolean) }).toEqual({ name, placeholders: [] });
    }
  });

  test("every instance records into the one bucket, keeps its data on a named volume; one publishes the RTMP port", () => {
    expect(instances.map(([name]) => name)).toEqual(["dreadcast-1", "dreadcast-2", "dreadcast-3"]);
    for (const [name, service] of instances) {
      expect(service.environment?.DREADCAST_RECORDINGS_URL).toContain("${RECORDINGS_URL:?");
      for (const s3 of ["DREADCAST_S3_ENDPOINT", "DREADCAST_S3_REGION", "DREADCAST_S3_ACCESS_KEY_ID", "DREADCAST_S3_SECRET_ACCESS_KEY"])
        expect(service.environment).toHaveProperty(s3);
      const volume = (service.volumes ?? []).map((v) => v.split(":")).find(([, at]) => at === "/data");
      expect({ name, volume: volume?.[0] }).toEqual({ name, volume: `${name}-data` });
      expect(doc.volumes).toHaveProperty(`${name}-data`);
    }
    expect(instances.flatMap(([, service]) => service.ports ?? [])).toEqual(["1935:1935"]);
  });
});

describe("the Dockerfile's health check", () => {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const line = dockerfile.split("\n").find((l) => l.startsWith("HEALTHCHECK"))!;
  const [shell, flag, script] = JSON.parse(line.slice(line.indexOf("["))) as string[];

  test("asks /healthz on the --port and --host the container was given, else DREADCAST_PORT, as the server takes them", async () => {
    expect([shell, flag]).toEqual(["/bin/bash", "-c"]);
    expect(script).toContain("/proc/1/cmdline");
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "dreadcast-health-"));
    const server = await startServer(dir, ["--port", String(port)]);
    try {
      /** The check's exit code with `argv` as the server's command line and `env` as the container's. */
      const check = (argv: string[], env: Record<string, string> = {}) => {
        const cmdline = join(dir, "cmdline");
        writeFileSync(cmdline, argv.map((a) => `${a}\0`).join(""));
        return Bun.spawnSync(["/bin/bash", "-c", script!.replaceAll("/proc/1/cmdline", cmdline)], { env: { PATH: process.env.PATH ?? "", ...env } }).exitCode;
      };
      const bin = "/usr/local/bin/dreadcast";
      const image = { DREADCAST_PORT: "3000", DREADCAST_HOST: "0.0.0.0" };
      expect(check([bin, "--port", String(port)], image)).toBe(0);
      expect(check([bin, `--port=${port}`, "--public-url", "https://night.hauntedhouse.tv"], image)).toBe(0);
      expect(check([bin, "--host", "127.0.0.1", "--port", String(port)], image)).toBe(0);
      expect(check(["/sbin/docker-init", "--", bin, "--port", String(port)], image)).toBe(0);
      expect(check([bin], { ...image, DREADCAST_PORT: String(port) })).toBe(0);
      // The last --port counts, as for the server; a port nothing answers on is unhealthy.
      expect(check([bin, "--port", "1", "--port", String(port)], image)).toBe(0);
      expect(check([bin], image)).not.toBe(0);
      expect(check([bin, "--port", String(port), "--port", "1"], image)).not.toBe(0);
    } finally {
      await server.kill("SIGTERM");
    }
  });
});

/** A TCP port nothing listens on just now. */
async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}
