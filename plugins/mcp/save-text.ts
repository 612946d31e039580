/** Where the whole text of a cut MCP result goes: a file of its own in the temp folder (0600). */
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "../../lib/random-ids/index.js";

export async function saveToTempFile(text: string): Promise<string> {
  const path = join(tmpdir(), `atomic-mcp-${randomHex(8)}.txt`);
  await writeFile(path, text, { mode: 0o600 });
  return path;
}
