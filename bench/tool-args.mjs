// bench/tool-args: a 100 KB `write` tool call streamed in 20-character deltas; the arguments are
// re-derived on every delta (each snapshot carries them). Needs `npm run build` (uses dist/).
import { StreamingJson } from "../dist/lib/provider-kit/streaming-json.js";

export function benchToolArgs({ size = 100_000, delta = 20 } = {}) {
  const text = JSON.stringify({ path: "a.txt", content: "x".repeat(size) });
  const streaming = new StreamingJson();
  const started = performance.now();
  for (let i = 0; i < text.length; i += delta) {
    streaming.push(text.slice(i, i + delta));
    streaming.value();
  }
  return { deltas: Math.ceil(text.length / delta), ms: +(performance.now() - started).toFixed(1) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(benchToolArgs()));
