import { describe, expect, it } from "vitest";
import { BRIDGE_ID_PREFIX, classify, route } from "./bridge-lines.js";

describe("--connect bridge lines", () => {
  it("takes the server's envelope off, byte for byte, and keeps ids and numbers as written", () => {
    expect(classify('{"agent":"a_abcdefghij","seq":12,"type":"message_update","n":1.50}')).toEqual({ kind: "event", text: '{"type":"message_update","n":1.50}' });
    expect(classify('{"agent":"a_abcdefghij","id":10000000000000000001,"type":"response","command":"get_state","success":true}')).toEqual({
      kind: "response",
      text: '{"id":10000000000000000001,"type":"response","command":"get_state","success":true}',
    });
    expect(classify('{"agent":"a_abcdefghij","code":"server_overloaded","id":"x","type":"response","success":false}')).toEqual({
      kind: "response",
      text: '{"id":"x","type":"response","success":false}',
    });
    expect(classify('{"code":"invalid_request","type":"response","command":"parse","success":false}')).toMatchObject({
      kind: "response",
      text: '{"type":"response","command":"parse","success":false}',
    });
    // The handle a command named is echoed whatever it is: the envelope goes all the same.
    expect(classify('{"agent":"a_doesnotexist","code":"unknown_agent","id":"x","type":"response"}')).toEqual({ kind: "response", text: '{"id":"x","type":"response"}' });
    expect(classify('{"agent":"a \\"q\\" \\\\","seq":3,"type":"agent_start"}')).toEqual({ kind: "event", text: '{"type":"agent_start"}' });
    // A field named like the envelope inside the record is the record's own.
    expect(classify('{"type":"tool_execution_end","agent":"x","seq":1}')).toEqual({ kind: "event", text: '{"type":"tool_execution_end","agent":"x","seq":1}' });
  });

  it("keeps the server's own records and the bridge's own responses from the client", () => {
    for (const type of ["server_hello", "replay_complete", "client_lagged", "connection_closing", "server_shutting_down", "agent_closed"])
      expect(classify(`{"type":"${type}","x":1}`)).toMatchObject({ kind: "server", type });
    expect(classify(`{"agent":"a_abcdefghij","id":"${BRIDGE_ID_PREFIX}3","type":"response"}`)).toMatchObject({ kind: "own-response" });
    expect(classify(`{"agent":"A_ZKBJIIXNWS","code":"unknown_agent","id":"${BRIDGE_ID_PREFIX}1","type":"response","command":"attach"}`)).toEqual({
      kind: "own-response",
      text: `{"id":"${BRIDGE_ID_PREFIX}1","type":"response","command":"attach"}`,
    });
    // extension_ui_resolved is the seed's event (a dialog answered elsewhere): the client sees it.
    expect(classify('{"agent":"a_abcdefghij","type":"extension_ui_resolved","id":"d1"}')).toEqual({ kind: "event", text: '{"type":"extension_ui_resolved","id":"d1"}' });
  });

  it("routes a command to the agent as its last member; a reply expects no response; a line that is no object passes as it came", () => {
    expect(route('{"type":"get_state","id":7}', "a_abcdefghij")).toEqual({ text: '{"type":"get_state","id":7,"agent":"a_abcdefghij"}', answered: true });
    expect(route('{"type":"prompt","agent":"other"} ', "a_abcdefghij").text).toBe('{"type":"prompt","agent":"other","agent":"a_abcdefghij"} ');
    expect(route("{}", "a_abcdefghij")).toEqual({ text: '{"agent":"a_abcdefghij"}', answered: true });
    expect(route('{"type":"extension_ui_response","id":"d1","confirmed":true}', "a_abcdefghij").answered).toBe(false);
    // A string id is reported: the bridge never gives its own commands one its client used.
    expect(route(`{"type":"get_state","id":"${BRIDGE_ID_PREFIX}1"}`, "a_abcdefghij")).toMatchObject({ id: `${BRIDGE_ID_PREFIX}1` });
    expect(route("not json", "a_abcdefghij")).toEqual({ text: "not json", answered: true });
    expect(route("[1,2]", "a_abcdefghij")).toEqual({ text: "[1,2]", answered: true });
  });
});
