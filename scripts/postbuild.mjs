// After tsc: copy non-TypeScript assets next to the compiled plugins and make the bin executable.
import { chmodSync, cpSync, existsSync } from "node:fs";

const assets = [["plugins/provider-replay/cassettes", "dist/plugins/provider-replay/cassettes"]];
for (const [from, to] of assets) if (existsSync(from)) cpSync(from, to, { recursive: true });
chmodSync("dist/cli/atomic.js", 0o755);
