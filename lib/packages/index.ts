/**
 * Packages as pi has them (see docs/packages.md): what a package folder provides (a manifest
 * under `atomic` or `pi`, conventional folders, or its own entry), the selection patterns of
 * manifests and settings filters, and package sources (`npm:`, `git:`, local paths). Pure file
 * reading: installing is the packages plugin's business. Loaded only when there is a package or
 * a folder to read (source.ts alone is light: it is what startup needs to decide that).
 */
export { localPackageProblem, packageResources, type PackageResources, type ResourceFilter } from "./resources.js";
export { readPackageJson, RESOURCE_KINDS, type Manifest, type PackageJson, type ResourceKind } from "./manifest.js";
export { applyPatterns } from "./patterns.js";
export { extensionsIn, folderEntries, isExtensionFile } from "./walk.js";
export { isRemoteSource, parseSource, sourceIdentity, type GitSource, type LocalSource, type NpmSource, type PackageSource } from "./source.js";
export { npmRange, npmSatisfied } from "./versions.js";
