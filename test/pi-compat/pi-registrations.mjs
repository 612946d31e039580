// Run by a Node that pi itself supports (pi 1.x needs >= 22.19): loads each extension file given
// with pi's own loader, in a folder of its own, and prints what each registered, as JSON on
// stdout: { "<file>": { commands, tools, flags } | { error } }.
//
//   node pi-registrations.mjs <pi package dir> <cwd> <file>...
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [piDir, cwd, ...files] = process.argv.slice(2);
// Stdout carries the answer: whatever an extension prints while loading goes to stderr.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
console.log = console.error;
const { loadExtensions } = await import(pathToFileURL(join(piDir, "dist/core/extensions/loader.js")).href);
const out = {};
for (const file of files) {
  const result = await loadExtensions([file], cwd);
  if (result.errors.length > 0) {
    out[file] = { error: result.errors[0].error };
    continue;
  }
  const [extension] = result.extensions;
  out[file] = { commands: [...extension.commands.keys()].sort(), tools: [...extension.tools.keys()].sort(), flags: [...extension.flags.keys()].sort() };
}
write(JSON.stringify(out));
