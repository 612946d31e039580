/**
 * The prompts of a print or JSON run: the positional arguments in order, with piped stdin (when
 * stdin is not a terminal and holds something) placed before the first one's text, as pi does.
 */
import { UsageError } from "../../kernel/index.js";

/** Reads stdin to its end unless it is a terminal; blank input counts as none. */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
  if (stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
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
