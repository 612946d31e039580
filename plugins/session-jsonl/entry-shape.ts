/**
 * Shape checks for entries read from a session file. A file is input like any other: an entry
 * whose known fields have the wrong shape (a message without content, a nameless session_info)
 * would crash the session commands or the agent loop later, so the reader skips it. Unknown
 * entry types and message roles (from newer versions) are kept: nothing reads their fields.
 */
import { THINKING_LEVELS } from "../../lib/llm/index.js";

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);
const isStr = (value: unknown): value is string => typeof value === "string";

/** Whether the fields the session code reads for this entry type have usable types. */
export function hasValidShape(entry: Obj): boolean {
  switch (entry.type) {
    case "message":
      return isValidMessage(entry.message);
    case "model_change":
      return isStr(entry.provider) && isStr(entry.modelId);
    case "thinking_level_change":
      return (THINKING_LEVELS as readonly unknown[]).includes(entry.thinkingLevel);
    case "compaction":
      return isStr(entry.summary) && (entry.firstKeptEntryId === null || isStr(entry.firstKeptEntryId)) && typeof entry.tokensBefore === "number";
    case "session_info":
      return isStr(entry.name);
    case "label":
      return isStr(entry.targetId) && (entry.label === undefined || isStr(entry.label));
    case "custom":
      return isStr(entry.customType);
    default:
      return true;
  }
}

function isValidMessage(message: unknown): boolean {
  if (!isObj(message) || !isStr(message.role)) return false;
  switch (message.role) {
    case "user":
      return isStr(message.content) || blocks(message.content, USER_BLOCKS);
    case "custom":
      return isStr(message.customType) && (isStr(message.content) || blocks(message.content, USER_BLOCKS));
    case "assistant":
      return blocks(message.content, ASSISTANT_BLOCKS);
    case "toolResult":
      return isStr(message.toolCallId) && isStr(message.toolName) && blocks(message.content, USER_BLOCKS);
    case "bashExecution":
      return isStr(message.command) && isStr(message.output);
    default:
      return true;
  }
}

type BlockCheck = Record<string, (block: Obj) => boolean>;

const TEXT = (block: Obj) => isStr(block.text);
const IMAGE = (block: Obj) => isStr(block.data) && isStr(block.mimeType);
const USER_BLOCKS: BlockCheck = { text: TEXT, image: IMAGE };
const ASSISTANT_BLOCKS: BlockCheck = {
  text: TEXT,
  thinking: (block) => isStr(block.thinking),
  toolCall: (block) => isStr(block.id) && isStr(block.name) && isObj(block.arguments),
};

function blocks(content: unknown, allowed: BlockCheck): boolean {
  if (!Array.isArray(content)) return false;
  return content.every((block) => isObj(block) && isStr(block.type) && Object.hasOwn(allowed, block.type) && allowed[block.type]!(block));
}
