/**
 * The provider-error classification compaction relies on (which failures mean "the request no
 * longer fits", which are worth retrying), from the shared provider toolkit.
 */
export { isContextOverflow, isRetryableError, isSilentOverflow } from "../../lib/provider-kit/index.js";
