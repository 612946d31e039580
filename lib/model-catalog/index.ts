/**
 * The built-in provider catalog as data: one JSON file per provider (`data/<provider>.json`,
 * with the source it was taken from and the date it was checked), compiled into one file at
 * build time, read at startup and expanded per provider on first use; refreshed copies from a
 * public catalog live under `<agent dir>/catalog/` (`atomic models update`).
 */
export { CATALOG_ORDER } from "./order.js";
export { PROVIDER_NAME, catalogSchemas, type CatalogEntry, type CatalogFile, type CatalogProvider } from "./schema.js";
export { expandModel, expandModels, providerRegistration } from "./expand.js";
export { catalogDir, compileCatalog, fromCompiled, parseCatalogFile, readCatalog, readDataFiles, readShippedFiles, type CatalogSource } from "./source.js";
export { idProblem, MAX_CATALOG_FILE_BYTES, MAX_MODELS_PER_PROVIDER, nameProblem, visible } from "./entry-checks.js";
