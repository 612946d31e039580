/** The login commands' and event's shapes over the protocol: one zod schema each, the source of their types. */
import { z } from "zod";

/** Built per schema, on first use (not at startup). */
const noticeFields = () => ({
  url: z.string().optional().meta({ description: "auth_url: the address to open in a browser." }),
  instructions: z.string().optional().meta({ description: "auth_url: what to do there (and that a redirect URL may be pasted back)." }),
  userCode: z.string().optional().meta({ description: "device_code: the code to enter." }),
  verificationUri: z.string().optional().meta({ description: "device_code: where to enter it." }),
  intervalSeconds: z.number().optional().meta({ description: "device_code: how often Atomic checks whether it was entered." }),
  expiresInSeconds: z.number().optional().meta({ description: "device_code: how long the code is valid." }),
});

export const LoginUpdateSchema = () =>
  z
    .object({
      loginId: z.string().describe("The login (from the `login` response)."),
      provider: z.string().describe("The provider being signed in to."),
      status: z
        .enum(["auth_url", "device_code", "progress", "succeeded", "failed", "cancelled"])
        .describe("auth_url / device_code: where to sign in; progress: a step; succeeded: the login is stored in auth.json; failed / cancelled: it ended without one."),
      ...noticeFields(),
      message: z.string().optional().meta({ description: "progress: the step; failed / cancelled: why." }),
    })
    .meta({
      description: "A login started with `login` moved on: where to sign in, a step, or its end.",
      examples: [{ loginId: "login-1a2b3c4d5e6f", provider: "github-copilot", status: "succeeded" }],
    });
export type LoginUpdate = z.output<ReturnType<typeof LoginUpdateSchema>>;

export const LoginStartSchema = () =>
  z.object({
    loginId: z.string().describe("Names this login in `login_input`, `login_cancel` and `login_update` events."),
    provider: z.string().describe("The provider."),
    method: z.string().describe("The method used (browser, copy_code, device_code)."),
    kind: z.enum(["auth_url", "device_code"]).describe("auth_url: open `url`; device_code: enter `userCode` at `verificationUri`."),
    ...noticeFields(),
    acceptsInput: z
      .boolean()
      .describe("True when the login also takes the redirect URL (or code) pasted through `login_input`: the fallback when the browser cannot reach this machine."),
  });
export type LoginStart = z.output<ReturnType<typeof LoginStartSchema>>;

export const LoginMethodSchema = () => z.enum(["browser", "copy_code", "device_code"]);

export const LoginProviderSchema = () =>
  z.object({
    provider: z.string().describe("The provider id (as in `set_model`)."),
    name: z.string().describe("What the login signs in to."),
    methods: z
      .array(z.object({ id: LoginMethodSchema().describe("What `login` takes as `method`."), label: z.string().describe("What the method does, for a person.") }))
      .describe("Its methods; the first is the default."),
    loggedIn: z.boolean().describe("auth.json holds a login for it."),
    expires: z.number().optional().meta({ description: "When the stored access token stops being used (ms since the epoch); it is refreshed before then." }),
  });

declare module "../../kernel/events.js" {
  interface EventMap {
    login_update: LoginUpdate;
  }
}
