/**
 * A loopback npm registry for install tests: packages are folders packed with the real `npm pack`
 * and served as the registry protocol's packument (`GET /<name>`) and tarballs, so `npm install`
 * runs exactly as against the public registry, with no network. `npmEnv` points a child's npm at
 * it, with a private cache and no user config.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { agentTempDir } from "./temp.js";

const run = promisify(execFile);

export interface PublishedVersion {
  version: string;
  tarball: Buffer;
  manifest: Record<string, unknown>;
}

export class NpmRegistry {
  readonly #packages = new Map<string, Map<string, PublishedVersion>>();
  readonly requests: string[] = [];
  #server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
      this.requests.push(`${req.method} ${path}`);
      const tarball = /^\/(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(path);
      if (tarball) {
        const found = this.#packages.get(tarball[1]!)?.get(tarball[2]!);
        if (!found) return void res.writeHead(404).end();
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": found.tarball.length });
        return void res.end(found.tarball);
      }
      const versions = this.#packages.get(path.slice(1));
      if (!versions) {
        res.writeHead(404, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ error: "Not found" }));
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(this.#packument(path.slice(1), versions)));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}/`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** Packs `folder` with npm and serves the result as its package.json's name and version. */
  async publish(folder: string): Promise<PublishedVersion> {
    const out = join(folder, "..", `.packed-${Date.now()}-${Math.random().toString(16).slice(2)}`);
    mkdirSync(out, { recursive: true });
    const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", out], {
      cwd: folder,
      env: { ...process.env, TMPDIR: agentTempDir(), npm_config_update_notifier: "false" },
    });
    const tarball = readFileSync(join(out, stdout.trim().split("\n").pop()!));
    const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, unknown> & { name: string; version: string };
    const published = { version: manifest.version, tarball, manifest };
    if (!this.#packages.has(manifest.name)) this.#packages.set(manifest.name, new Map());
    this.#packages.get(manifest.name)!.set(manifest.version, published);
    return published;
  }

  #packument(name: string, versions: Map<string, PublishedVersion>): Record<string, unknown> {
    const entries = [...versions.values()];
    const latest = entries[entries.length - 1]!.version;
    const tail = name.includes("/") ? name.split("/")[1]! : name;
    return {
      name,
      "dist-tags": { latest },
      versions: Object.fromEntries(
        entries.map(({ version, tarball, manifest }) => [
          version,
          {
            ...manifest,
            name,
            version,
            dist: {
              tarball: `${this.url}${name}/-/${tail}-${version}.tgz`,
              shasum: createHash("sha1").update(tarball).digest("hex"),
              integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
            },
          },
        ]),
      ),
    };
  }
}

/** Environment for a child whose npm must use `registry` only: a private cache, no user or global config. */
export function npmEnv(registry: NpmRegistry, dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const userconfig = join(dir, "npmrc");
  const globalconfig = join(dir, "npmrc-global");
  writeFileSync(userconfig, "");
  writeFileSync(globalconfig, "");
  return {
    npm_config_registry: registry.url,
    npm_config_cache: join(dir, "npm-cache"),
    npm_config_userconfig: userconfig,
    npm_config_globalconfig: globalconfig,
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_fetch_retries: "0",
  };
}
