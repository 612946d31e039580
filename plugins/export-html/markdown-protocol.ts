/** What the export's main thread and its markdown worker exchange. */
import { FIRST_USER_SLOT } from "../../lib/worker/index.js";

/** A text that takes this long to render is shown as plain text instead. */
export const MARKDOWN_DEADLINE_MS = 1000;

/** Progress slot: index (in the job) of the text being rendered. */
export const TEXT_SLOT = FIRST_USER_SLOT;
export const PROGRESS_SLOTS = FIRST_USER_SLOT + 1;

export interface MarkdownJob {
  texts: string[];
}

export interface MarkdownJobResult {
  /** Per text, its HTML ("" where it failed). Plain strings: cheap to send back. */
  html: string[];
  /** Texts marked threw on (e.g. "Maximum call stack size exceeded"), by index. */
  errors: { index: number; message: string }[];
}
