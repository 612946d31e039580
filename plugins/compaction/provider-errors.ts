/**
 * The provider-error classification compaction relies on (which failures mean "the request no
 * longer fits", which are worth retrying). The one file importing it, so it is repointed in one
 * place when the classifier moves.
 */
export { isContextOverflow, isRetryableError, isSilentOverflow } from "../models/errors.js";
