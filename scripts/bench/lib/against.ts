/**
 * `--against REF`: another commit's executable, built in a temporary worktree, to run beside the one under
 * test in the same run. Builds are kept under test-results/bench/builds/<commit>/ so a second run against
 * the same commit starts at once.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One build taking part in the run: which commit, and the executable's own name for itself. */
export interface BuildId {
  /** The commit, in full; "+dirty" after it when the working tree had changes. */
  commit: string;
  /** The ref as given (HEAD, a tag, HEAD~20…). */
  ref: string;
  /** What the executable says of its version, when it says. */
  version: string | null;
}

const git = (root: string, args: string[]) => {
  const run = Bun.spawnSync(["git", "-C", root, ...args], { stdout: "pipe", stderr: "pipe" });
  return { ok: run.exitCode === 0, out: run.stdout.toString().trim(), err: run.stderr.toString().trim() };
};

/** The commit a ref names; throws with git's reason when it names none. */
export function resolveCommit(root: string, ref: string): string {
  const found = git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (!found.ok || !/^[0-9a-f]{40}$/.test(found.out)) throw new Error(`--against ${ref}: no such commit in this repository`);
  return found.out;
}

/** What the executable prints for --version (the first line), or null if it does not know the flag. */
export function versionOf(bin: string): string | null {
  const run = Bun.spawnSync([bin, "--version"], { stdout: "pipe", stderr: "pipe", timeout: 10_000 });
  const first = run.stdout.toString().trim().split("\n")[0] ?? "";
  return run.exitCode === 0 && /^dreadcast\b/.test(first) ? first : null;
}

/** The build under test: this checkout's commit (and whether its tree has changes). */
export function currentBuild(root: string, bin: string): BuildId {
  const head = git(root, ["rev-parse", "HEAD"]).out;
  const dirty = git(root, ["status", "--porcelain", "--untracked-files=no"]).out !== "";
  return { commit: `${head}${dirty ? "+dirty" : ""}`, ref: "HEAD", version: versionOf(bin) };
}

const run = (cmd: string[], cwd: string, what: string) => {
  const child = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, NODE_ENV: "" } });
  if (child.exitCode !== 0) throw new Error(`${what} failed (exit ${child.exitCode}):\n${(child.stdout.toString() + child.stderr.toString()).slice(-3000)}`);
};

/**
 * The executable of `ref`, built once and kept: a detached worktree at that commit, its dependencies (this
 * checkout's when its lock file is the same, else installed from the registry), its own build script, the
 * worktree removed. Throws with the step that failed.
 */
export function buildAt(root: string, ref: string, log: (text: string) => void): { bin: string; id: BuildId } {
  const commit = resolveCommit(root, ref);
  const kept = join(root, "test-results/bench/builds", commit);
  const bin = join(kept, "dreadcast");
  if (!existsSync(bin)) {
    const tree = join(tmpdir(), `dreadcast-against-${commit}`);
    rmSync(tree, { recursive: true, force: true });
    git(root, ["worktree", "prune"]);
    const added = git(root, ["worktree", "add", "--detach", "--force", tree, commit]);
    if (!added.ok) throw new Error(`--against ${ref}: git worktree add failed: ${added.err}`);
    try {
      const lock = (dir: string) => (existsSync(join(dir, "package-lock.json")) ? readFileSync(join(dir, "package-lock.json"), "utf8") : "");
      if (lock(tree) !== "" && lock(tree) === lock(root) && existsSync(join(root, "node_modules"))) {
        symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
        log(`building ${ref} (${commit.slice(0, 10)}) with this checkout's dependencies (same lock file)`);
      } else {
        log(`building ${ref} (${commit.slice(0, 10)}): installing its dependencies (npm ci)`);
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel", "error"], tree, `npm ci at ${ref}`);
      }
      // Its own Bun when it has one (the build may depend on that version), else ours.
      const treeBun = join(tree, "node_modules/.bin/bun");
      run([existsSync(treeBun) ? treeBun : process.execPath, "scripts/build.ts"], tree, `the build at ${ref}`);
      const built = join(tree, "dist/dreadcast");
      if (!existsSync(built)) throw new Error(`the build at ${ref} made no dist/dreadcast`);
      mkdirSync(kept, { recursive: true });
      copyFileSync(built, bin);
      Bun.spawnSync(["chmod", "+x", bin]);
    } finally {
      git(root, ["worktree", "remove", "--force", tree]);
      rmSync(tree, { recursive: true, force: true });
      git(root, ["worktree", "prune"]);
    }
  } else {
    log(`${ref} (${commit.slice(0, 10)}) already built: ${bin}`);
  }
  return { bin, id: { commit, ref, version: versionOf(bin) } };
}
