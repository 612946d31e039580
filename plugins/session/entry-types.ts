/**
 * The session vocabulary shared by the protocol (get_entries, get_tree, list_sessions) and the
 * hooks: the entries of the append-only session tree. Types derive from their zod schemas
 * (entry-schemas.ts).
 */
import type { z } from "zod";
import type * as S from "./entry-schemas.js";

type Out<F extends () => z.ZodType> = z.output<ReturnType<F>>;

/** First line of a session file; not part of the tree. */
export type SessionHeader = Out<typeof S.SessionHeaderSchema>;
export type MessageEntry = Out<typeof S.MessageEntrySchema>;
export type ModelChangeEntry = Out<typeof S.ModelChangeEntrySchema>;
export type ThinkingLevelChangeEntry = Out<typeof S.ThinkingLevelChangeEntrySchema>;
/** Messages before `firstKeptEntryId` on the path are replaced by `summary` in the context. */
export type CompactionEntry = Out<typeof S.CompactionEntrySchema>;
export type SessionInfoEntry = Out<typeof S.SessionInfoEntrySchema>;
/** Labels `targetId`; an absent or empty label clears it. */
export type LabelEntry = Out<typeof S.LabelEntrySchema>;
/** Plugin/extension data; never part of the LLM context. */
export type CustomEntry = Out<typeof S.CustomEntrySchema>;
export type SessionEntry = Out<typeof S.SessionEntrySchema>;

export type SessionEntryType = SessionEntry["type"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What callers append: an entry without its tree fields (the tree assigns them). */
export type NewSessionEntry = DistributiveOmit<SessionEntry, "id" | "parentId" | "timestamp">;

/** One stored session as `list_sessions` reports it (pi's SessionInfo, ISO times). */
export type SessionInfo = Out<typeof S.SessionInfoSchema>;
