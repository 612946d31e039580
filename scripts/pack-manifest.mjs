#!/usr/bin/env node
// npm's `prepack` / `postpack`: the packed package.json has no `prepare` script. In the
// repository `prepare` builds dist/ after `npm ci`; in a user's install there is nothing to
// build (dist/ is in the tarball), and npm 11 warns about every install script of a package.
// `allowScripts` (this repository's review of its dependencies' install scripts, see README) is
// for the root project only, so it goes too. `strip` keeps the original beside it (not packed: `files` leaves it out); `restore` puts it back.
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const [mode] = process.argv.slice(2);
const BACKUP = "package.json.prepack";
if (mode === "strip") {
  const text = readFileSync("package.json", "utf8");
  writeFileSync(BACKUP, text);
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  delete manifest.allowScripts;
  writeFileSync("package.json", `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === "restore") {
  renameSync(BACKUP, "package.json");
} else {
  console.error("usage: pack-manifest.mjs strip|restore");
  process.exit(2);
}
