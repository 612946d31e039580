/**
 * The session vocabulary as zod schemas (the single source of the types in entry-types.ts): the
 * header and entries of the append-only session tree, tree nodes, and stored sessions as listed.
 */
import { z } from "zod";
import { AgentMessageSchema, once, THINKING_LEVELS } from "../../lib/llm/index.js";

export const SessionHeaderSchema = once(() =>
  z
    .object({
      type: z.literal("session"),
      version: z.literal(1),
      id: z.string().meta({ description: "uuid" }),
      timestamp: z.string().meta({ description: "ISO creation time" }),
      cwd: z.string().describe("The working folder the session was started in."),
      parentSession: z.string().optional().meta({ description: "File of the session this one was forked, cloned or started from." }),
    })
    .meta({ description: "First line of a session file; not part of the tree." }),
);

const base = () => ({
  id: z.string().meta({ description: "8 hex characters, unique within the session." }),
  parentId: z.string().nullable().describe("The entry this one follows (null for the first): entries form a tree, a branch is a path from the root."),
  timestamp: z.string().meta({ description: "ISO time of the append." }),
});

export const MessageEntrySchema = once(() =>
  z.object({ type: z.literal("message"), ...base(), message: AgentMessageSchema().describe("The message.") }).describe("A message of the conversation."),
);
export const ModelChangeEntrySchema = once(() =>
  z
    .object({ type: z.literal("model_change"), ...base(), provider: z.string().describe("The new model's provider."), modelId: z.string().describe("The new model's id.") })
    .describe("The model changed."),
);
export const ThinkingLevelChangeEntrySchema = once(() =>
  z.object({ type: z.literal("thinking_level_change"), ...base(), thinkingLevel: z.enum(THINKING_LEVELS).describe("The new level.") }).describe("The thinking level changed."),
);
export const CompactionEntrySchema = once(() =>
  z
    .object({
      type: z.literal("compaction"),
      ...base(),
      summary: z.string().describe("The text that stands for the compacted messages."),
      firstKeptEntryId: z.string().nullable().describe("The first entry kept as it was (null: none)."),
      tokensBefore: z.number().describe("Context tokens before compaction."),
      details: z.unknown().optional().describe("The compactor's own data (strategy, statistics)."),
      fromHook: z.boolean().optional().meta({ description: 'The text came from a `session_before_compact` tap (rung "extension").' }),
    })
    .meta({
      description:
        'Messages before `firstKeptEntryId` on the path are replaced by `summary` in the context; with `details.strategy: "verbatim-lines"` the summary is the compacted transcript.',
    }),
);
export const SessionInfoEntrySchema = once(() =>
  z.object({ type: z.literal("session_info"), ...base(), name: z.string().describe("The session's new name.") }).describe("The session was named (`set_session_name`)."),
);
export const LabelEntrySchema = once(() =>
  z
    .object({ type: z.literal("label"), ...base(), targetId: z.string().describe("The entry labelled."), label: z.string().optional().describe("The label.") })
    .meta({ description: "Labels `targetId`; an absent or empty label clears it." }),
);
export const CustomEntrySchema = once(() =>
  z
    .object({
      type: z.literal("custom"),
      ...base(),
      customType: z.string().describe("What kind of data, named by its writer."),
      data: z.unknown().optional().describe("The data."),
    })
    .meta({ description: "Plugin or extension data; never part of the LLM context." }),
);

export const SessionEntrySchema = once(() =>
  z
    .discriminatedUnion("type", [
      MessageEntrySchema(),
      ModelChangeEntrySchema(),
      ThinkingLevelChangeEntrySchema(),
      CompactionEntrySchema(),
      SessionInfoEntrySchema(),
      LabelEntrySchema(),
      CustomEntrySchema(),
    ])
    .describe("One line of a session file after the header, by `type`."),
);

/**
 * An entry of a type Atomic does not write, kept as read from the file and never interpreted:
 * pi's `custom_message` and `branch_summary` (an imported pi session), or a newer version's.
 */
export const ForeignSessionEntrySchema = once(() => {
  const known = SessionEntrySchema().options.map((option) => option.shape.type.value);
  return z
    .looseObject({
      type: z
        .string()
        .regex(new RegExp(`^(?!(?:${known.join("|")})$)`))
        .meta({ description: "Any type but Atomic's own." }),
      ...base(),
    })
    .meta({ description: "An entry of a type Atomic does not write (pi's custom_message and branch_summary, a newer version's), kept as read." });
});

/** What `get_entries` and `get_tree` carry: Atomic's entries, and foreign ones kept from the file. */
export const StoredSessionEntrySchema = once(() =>
  z.union([SessionEntrySchema(), ForeignSessionEntrySchema()]).describe("An entry as stored: one of Atomic's, or a foreign one kept as read."),
);

export interface TreeNodeShape {
  entry: z.output<ReturnType<typeof StoredSessionEntrySchema>>;
  children: TreeNodeShape[];
  label?: string;
  labelTimestamp?: string;
}

/** `get_tree` nodes: recursive (a branch nests as deep as it is long). */
export const TreeNodeSchema: () => z.ZodType<TreeNodeShape> = once(() =>
  z
    .object({
      entry: StoredSessionEntrySchema().describe("The entry."),
      get children() {
        return z.array(TreeNodeSchema()).describe("The entries that follow it (more than one where the conversation branched).");
      },
      label: z.string().optional().describe("The entry's label, if it has one."),
      labelTimestamp: z.string().optional().describe("When the label was set (ISO time)."),
    })
    .describe("An entry of the session tree and the entries that follow it."),
);

/** One stored session as `list_sessions` reports it: pi's SessionInfo, times as ISO strings. */
export const SessionInfoSchema = once(() =>
  z
    .object({
      path: z.string().meta({ description: "Absolute path of the session file." }),
      id: z.string().meta({ description: "The header's session id (uuid)." }),
      cwd: z.string().meta({ description: 'Working folder the session was started in ("" for files without one).' }),
      name: z.string().optional().meta({ description: "From the newest session_info entry, on one line (control characters shown as spaces); absent when never named." }),
      parentSessionPath: z.string().optional().meta({ description: "The session this one was forked or cloned from." }),
      created: z.string().meta({ description: "ISO time of the header." }),
      modified: z.string().meta({ description: "ISO time of the last user or assistant message (else the header's, else the file's mtime)." }),
      messageCount: z.number().int().nonnegative().meta({ description: "Message entries, every branch." }),
      firstMessage: z.string().meta({ description: 'Text of the first user message, cut at 4,096 characters, or "(no messages)".' }),
    })
    .meta({ description: "One stored session, as `list_sessions` lists it (pi's SessionInfo)." }),
);

/** The named vocabulary, for the protocol schema's `$defs`. */
export function sessionVocabulary(): Record<string, () => z.ZodType> {
  return {
    SessionHeader: SessionHeaderSchema,
    SessionEntry: SessionEntrySchema,
    ForeignSessionEntry: ForeignSessionEntrySchema,
    StoredSessionEntry: StoredSessionEntrySchema,
    TreeNode: TreeNodeSchema,
    SessionInfo: SessionInfoSchema,
  };
}
