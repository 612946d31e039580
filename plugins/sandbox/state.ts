/** The `sandbox` field of get_state: the policy in force and how it is enforced. */
import { z } from "zod";
import { APPROVAL_POLICIES, SANDBOX_MODES } from "./policy.js";

export const sandboxStateSchema = () =>
  z
    .object({
      mode: z.enum(SANDBOX_MODES).describe('"off" (the default, as pi: commands and file tools run with the user\'s rights), "read-only" or "workspace-write".'),
      network: z.union([z.boolean(), z.array(z.string())]).describe("false: no network; true: the host's; a list: only these hosts, through Atomic's proxy."),
      writableRoots: z.array(z.string()).describe("Writable besides the workspace and the private /tmp (workspace-write)."),
      denyRead: z.array(z.string()).describe("Never readable by the model's commands and file tools (the agent's credentials and the usual secret folders always)."),
      approval: z.enum(APPROVAL_POLICIES).describe('"on-request": the model may ask the client to run one command outside the sandbox.'),
      enforcement: z.enum(["none", "bubblewrap", "sandbox-exec"]).describe("How commands are confined here."),
      unavailable: z.string().optional().meta({ description: "Why the sandbox cannot start: commands the model starts are refused (never run unconfined)." }),
    })
    .meta({
      description: "The sandbox policy in force for the model's commands and file tools.",
      examples: [
        {
          mode: "workspace-write",
          network: false,
          writableRoots: [],
          denyRead: ["/home/ada/.atomic/agent/auth.json", "/home/ada/.ssh"],
          approval: "never",
          enforcement: "bubblewrap",
        },
      ],
    });
