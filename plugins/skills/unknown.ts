/**
 * The error for `/skill:name` when no skill has that name. The syntax says a skill is meant, so
 * a slip is refused with what was likely meant; sent as typed, the model would get the slash
 * line and guess.
 */
import { nearestName } from "../../lib/closest/index.js";

/** Names the error lists before it points at get_commands instead. */
export const MAX_NAMED_SKILLS = 20;

/**
 * `Unknown skill "x". Did you mean "y"?`, or the skills there are, or that none is loaded.
 * `off`: how the run's options turned discovery off (`--no-skills`), with how `--skill` is named.
 */
export function unknownSkill(name: string, known: readonly string[], off?: { noSkills: string; skill: string }): string {
  const near = name === "" ? undefined : nearestName(known, name);
  const head = name === "" ? "/skill: names no skill (write /skill:<name>)." : `Unknown skill "${name}".`;
  const shown = known.slice(0, MAX_NAMED_SKILLS).join(", ");
  const more = known.length > MAX_NAMED_SKILLS ? ` and ${known.length - MAX_NAMED_SKILLS} more (see get_commands)` : "";
  const hint = near ? ` Did you mean "${near}"?` : known.length > 0 ? ` Available skills: ${shown}${more}.` : off ? "" : " No skills are loaded (see get_commands).";
  const offNote = off ? ` Skills are off for this run (${off.noSkills}): only ${off.skill} paths load.` : "";
  return head + hint + offNote;
}
