/**
 * The prompts of a print or JSON run: the positional arguments in order, with piped stdin (when
 * stdin is not a terminal and holds something) placed before the first one's text, as pi does.
 */
import { ErrorCode, KernelError, UsageError } from "../../kernel/index.js";

/** More than any model's context window holds: past it reading stops (3 GB piped in used to take 5.9 GB, then crash). */
export const MAX_PIPED_BYTES = 16 * 1024 * 1024;

/** Reads stdin to its end unless it is a terminal; blank input counts as none. */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin, maxBytes = MAX_PIPED_BYTES): Promise<string | undefined> {
  if (stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stdin) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
    bytes += chunks.at(-1)!.length;
    if (bytes > maxBytes) {
      stdin.destroy();
      throw new KernelError(
        ErrorCode.INVALID_INPUT,
        `The input piped to stdin is over ${maxBytes / (1024 * 1024)} MiB, more than a prompt can use; pipe less, or name the file in the prompt for the model to read`,
      );
    }
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return text === "" ? undefined : text;
}

export function promptTexts(positionals: readonly string[], piped: string | undefined, mode: string): string[] {
  const prompts = [...positionals];
  if (piped !== undefined) prompts[0] = prompts.length > 0 ? `${piped}\n\n${prompts[0]}` : piped;
  if (prompts.length === 0) {
    const how = mode === "print" ? "atomic -p" : `atomic --mode ${mode}`;
    throw new UsageError(`${how} needs a prompt: give it as an argument (${how} "your prompt") or pipe it on stdin`);
  }
  return prompts;
}
