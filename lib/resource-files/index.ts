/**
 * Shared by the resource plugins (skills, prompt templates): safe reading of data files,
 * frontmatter, where resources live and whether a project file may be read, one-time notes,
 * and re-scanning that parses only what changed.
 */
export { MAX_RESOURCE_BYTES, readResourceText, decodeText, describeFsError, type ReadResult, type StampedRead } from "./read.js";
export { parseFrontmatter, stringField, type Frontmatter, type FrontmatterResult } from "./frontmatter.js";
export { OnceNotes } from "./notes.js";
export { FreshScan, StampedCache, type FileStamp } from "./fresh-scan.js";
export { checkFile, checkFolder, realFolder, type Checked } from "./checked.js";
export {
  cliRoots,
  discoveredRoots,
  isInside,
  projectAncestry,
  projectRoot,
  repositoryRoot,
  provenanceOf,
  settingRoots,
  type Provenance,
  type ResourceLocation,
  type ResourceRoot,
  type SourceInfo,
} from "./places.js";
