/**
 * Package sources as pi writes them in settings and on the command line: `npm:<name>[@version]`,
 * `git:<repository>[@ref]` (also a bare `https://`, `ssh://`, `git://` URL or `git@host:path`), or
 * a local path. A source's identity ignores the version or ref, so one package named twice (user
 * and project settings, two versions) is one package.
 */
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";

export interface NpmSource {
  type: "npm";
  /** What was written, `npm:` included. */
  raw: string;
  /** `name@version` or `name`, as npm takes it. */
  spec: string;
  name: string;
  version?: string;
  /** An exact version: never updated. */
  pinned: boolean;
}

export interface GitSource {
  type: "git";
  raw: string;
  /** What `git clone` takes. */
  repo: string;
  /** Install folder parts: `<host>/<path>` (`local/<path>` for a `file://` repository). */
  host: string;
  path: string;
  ref?: string;
}

export interface LocalSource {
  type: "local";
  raw: string;
  /** Absolute. */
  path: string;
}

export type PackageSource = NpmSource | GitSource | LocalSource;

const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;
/** An exact semver version (what `npm install name@1.2.3` pins). */
const EXACT_VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const URL_PREFIX = /^(?:https?|ssh|git|file):\/\//;

/** True for what is never a local path: `npm:`, `git:`, repository URLs. */
export function isRemoteSource(raw: string): boolean {
  return raw.startsWith("npm:") || raw.startsWith("git:") || URL_PREFIX.test(raw) || /^git@[^:]+:/.test(raw);
}

/**
 * Parses one source; local paths resolve against `base` (the folder of the settings file that
 * names them, or the working folder on the command line). Throws a message naming the source.
 */
export function parseSource(raw: string, base: string, env: NodeJS.ProcessEnv = process.env): PackageSource {
  const text = raw.trim();
  if (text === "") throw new Error("Invalid package source: empty");
  if (text.startsWith("npm:")) return parseNpm(text);
  if (text.startsWith("git:")) return parseGit(text, text.slice(4));
  if (isRemoteSource(text)) return parseGit(text, text);
  const expanded = expandHome(text, env);
  return { type: "local", raw: text, path: isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded) };
}

function parseNpm(raw: string): NpmSource {
  const spec = raw.slice(4).trim();
  // The version separator is the first `@` after the (possibly scoped) name.
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  const name = at < 0 ? spec : spec.slice(0, at);
  const version = at < 0 ? undefined : spec.slice(at + 1);
  if (!NPM_NAME.test(name) || version === "" || (version !== undefined && /\s/.test(version))) {
    throw new Error(`Invalid npm package source "${raw}": expected npm:<name> or npm:<name>@<version>`);
  }
  return { type: "npm", raw, spec, name, ...(version !== undefined ? { version } : {}), pinned: version !== undefined && EXACT_VERSION.test(version) };
}

function parseGit(raw: string, rest: string): GitSource {
  const bad = (why: string) => new Error(`Invalid git package source "${raw}": ${why}`);
  let repo: string;
  let host: string;
  let path: string;
  let ref: string | undefined;
  const scp = /^git@([^:/]+):(.+)$/.exec(rest);
  if (scp) {
    host = scp[1]!;
    [path, ref] = splitRef(scp[2]!);
    repo = `git@${host}:${path}`;
  } else if (URL_PREFIX.test(rest)) {
    const protocol = rest.slice(0, rest.indexOf("://"));
    const after = rest.slice(protocol.length + 3);
    const slash = after.indexOf("/");
    if (slash < 0) throw bad("no repository path");
    const authority = after.slice(0, slash);
    let rawPath: string;
    [rawPath, ref] = splitRef(after.slice(slash + 1));
    if (protocol === "file") {
      if (authority !== "" && authority !== "localhost") throw bad("a file:// repository must be on this machine (file:///path)");
      host = "local";
      path = rawPath;
      repo = `file:///${rawPath}`;
    } else {
      let url: URL;
      try {
        url = new URL(`${protocol}://${authority}/${rawPath}`);
      } catch {
        throw bad("not a URL");
      }
      host = url.hostname;
      path = rawPath;
      repo = `${protocol}://${authority}/${rawPath}`;
    }
  } else {
    const slash = rest.indexOf("/");
    if (slash < 0) throw bad("expected git:<host>/<owner>/<repository>[@ref], a URL, or git@<host>:<path>");
    host = rest.slice(0, slash);
    [path, ref] = splitRef(rest.slice(slash + 1));
    repo = `https://${host}/${path}`;
  }
  path = path.replace(/\.git$/, "").replace(/\/+$/, "");
  const parts = path.split("/");
  if (host === "" || /[\\\0/]/.test(host) || host === "." || host === "..") throw bad(`unusable host "${host}"`);
  if (parts.some((part) => part === "" || part === "." || part === ".." || /[\\\0]/.test(part))) throw bad(`unusable repository path "${path}"`);
  if (host !== "local" && parts.length < 2) throw bad("expected <owner>/<repository> after the host");
  if (ref !== undefined && (ref === "" || ref.startsWith("-") || /\s/.test(ref))) throw bad(`unusable ref "${ref}"`);
  return { type: "git", raw, repo, host, path, ...(ref !== undefined ? { ref } : {}) };
}

/** `path@ref` at the last `@` (a path part never holds one). */
function splitRef(pathWithRef: string): [string, string | undefined] {
  const at = pathWithRef.lastIndexOf("@");
  return at < 0 ? [pathWithRef, undefined] : [pathWithRef.slice(0, at), pathWithRef.slice(at + 1)];
}

/** One package however it is written: npm by name, git by host and path, local by absolute path. */
export function sourceIdentity(source: PackageSource): string {
  if (source.type === "npm") return `npm:${source.name}`;
  if (source.type === "git") return `git:${source.host}/${source.path}`;
  return `local:${source.path}`;
}
