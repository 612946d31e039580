/** grep's bounds, shared by its declaration (grep.ts, in its description) and its search. */
export const DEFAULT_GREP_LIMIT = 100;
export const MAX_LINE_CHARS = 500;
