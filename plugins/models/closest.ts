/** The catalog entries nearest to a pattern that matched nothing, for the error that names them. */
export { closestHint, closestModels, modelSlipLimit, providerMeant } from "../../lib/closest/models.js";
