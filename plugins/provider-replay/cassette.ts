/**
 * Cassettes: recorded model streams. JSONL: a header line, then per LLM call a `{"type":"turn"}`
 * line followed by that call's unified events without `partial` (the replay rebuilds it).
 * A cassette may hold several tapes (`{"type":"tape","when":"<regex>"}` lines, each followed by
 * its turns): a run plays the first tape whose `when` matches its prompt, else the tape without
 * `when`. A recording cannot read the prompt, so this is how one cassette answers "create a
 * file" with a write and anything else without touching the folder.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { formatValidationError } from "../../kernel/index.js";

const Usage = z.object({ input: z.number(), output: z.number(), cacheRead: z.number().optional(), cacheWrite: z.number().optional() }).partial();

export const CassetteEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text_start"), contentIndex: z.number().int() }),
  z.object({ type: z.literal("text_delta"), contentIndex: z.number().int(), delta: z.string() }),
  z.object({ type: z.literal("text_end"), contentIndex: z.number().int() }),
  /** A text delta quoting the run's last tool result (fenced): a recording's answer cannot know what its tool will print here. */
  z.object({ type: z.literal("quote_tool_result"), contentIndex: z.number().int() }),
  z.object({ type: z.literal("thinking_start"), contentIndex: z.number().int() }),
  z.object({ type: z.literal("thinking_delta"), contentIndex: z.number().int(), delta: z.string() }),
  z.object({ type: z.literal("thinking_end"), contentIndex: z.number().int() }),
  z.object({ type: z.literal("toolcall_start"), contentIndex: z.number().int(), id: z.string(), name: z.string() }),
  z.object({ type: z.literal("toolcall_delta"), contentIndex: z.number().int(), delta: z.string() }),
  z.object({
    type: z.literal("toolcall_end"),
    contentIndex: z.number().int(),
    toolCall: z.object({ type: z.literal("toolCall").optional(), id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }).optional(),
  }),
  z.object({ type: z.literal("done"), reason: z.enum(["stop", "length", "toolUse"]), usage: Usage.optional() }),
  z.object({ type: z.literal("error"), reason: z.enum(["error", "aborted"]).optional(), errorMessage: z.string() }),
]);
export type CassetteEvent = z.output<typeof CassetteEvent>;

const Header = z.object({
  type: z.literal("cassette"),
  version: z.literal(1),
  name: z.string().optional(),
  description: z.string().optional(),
  /** Pause before each event, so a human (or an abort test) can watch it stream. */
  eventDelayMs: z.number().min(0).optional(),
  reasoning: z.boolean().optional(),
  contextWindow: z.number().int().positive().optional(),
});

const TapeLine = z.object({
  type: z.literal("tape"),
  /** A regular expression (case-insensitive) tested against the run's prompt; absent: the default tape. */
  when: z.string().optional(),
});

export interface Tape {
  when?: RegExp;
  turns: CassetteEvent[][];
}

export interface Cassette {
  name: string;
  description?: string;
  eventDelayMs: number;
  reasoning: boolean;
  contextWindow: number;
  /** The turns of the first tape (all of them for a cassette without tape lines). */
  turns: CassetteEvent[][];
  tapes: Tape[];
}

/** The tape a run with this prompt plays: the first whose `when` matches, else the default one. */
export function tapeFor(cassette: Cassette, prompt: string): Tape | undefined {
  return cassette.tapes.find((tape) => tape.when?.test(prompt)) ?? cassette.tapes.find((tape) => !tape.when);
}

export function parseCassette(name: string, text: string, source: string): Cassette {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines.length === 0) throw new Error(`Empty cassette: ${source}`);
  const header = Header.safeParse(parseLine(lines[0]!, source, 1));
  if (!header.success) throw new Error(`Invalid cassette header in ${source}: ${formatValidationError(header.error)}`);
  const tapes: Tape[] = [];
  let turns: CassetteEvent[][] | undefined;
  for (let i = 1; i < lines.length; i++) {
    const json = parseLine(lines[i]!, source, i + 1) as { type?: unknown };
    if (json.type === "tape") {
      const tape = TapeLine.safeParse(json);
      if (!tape.success) throw new Error(`Invalid tape on line ${i + 1} of ${source}: ${formatValidationError(tape.error)}`);
      tapes.push({ ...(tape.data.when !== undefined ? { when: tapePattern(tape.data.when, source, i + 1) } : {}), turns: [] });
      turns = tapes.at(-1)!.turns;
      continue;
    }
    if (json.type === "turn") {
      if (!turns) tapes.push({ turns: (turns = []) });
      turns.push([]);
      continue;
    }
    const event = CassetteEvent.safeParse(json);
    if (!event.success) throw new Error(`Invalid event on line ${i + 1} of ${source}: ${formatValidationError(event.error)}`);
    if (!turns || turns.length === 0) throw new Error(`Line ${i + 1} of ${source}: an event before the first {"type":"turn"} line`);
    turns[turns.length - 1]!.push(event.data);
  }
  if (tapes.length === 0) tapes.push({ turns: [] });
  return {
    name: header.data.name ?? name,
    ...(header.data.description ? { description: header.data.description } : {}),
    eventDelayMs: header.data.eventDelayMs ?? 0,
    reasoning: header.data.reasoning ?? false,
    contextWindow: header.data.contextWindow ?? 200_000,
    turns: tapes[0]!.turns,
    tapes,
  };
}

function tapePattern(source: string, file: string, lineNumber: number): RegExp {
  try {
    return new RegExp(source, "i");
  } catch (error) {
    throw new Error(`Invalid tape "when" on line ${lineNumber} of ${file}: ${(error as Error).message}`);
  }
}

export async function readCassette(name: string, path: string): Promise<Cassette> {
  return parseCassette(name, await readFile(path, "utf8"), path);
}

function parseLine(line: string, source: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new Error(`Invalid JSON on line ${lineNumber} of ${source}: ${(error as Error).message}`);
  }
}
