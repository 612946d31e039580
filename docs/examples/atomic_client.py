#!/usr/bin/env python3
"""A small, dependency-free Python client for `atomic --mode rpc` (Python 3.8+).

Records are JSON lines split on LF only: stdout is read in binary mode, so a U+2028 inside a
JSON string never ends a record (text-mode line readers may split on more than LF).

    python3 atomic_client.py "Summarise README.md" -- --provider anthropic --model claude-sonnet-4-5

Set ATOMIC_CMD to run something other than `atomic` (for example `node dist/cli/atomic.cjs`).

Extension dialogs (`extension_ui_request` with method select, confirm, input or editor) are
answered by `on_dialog(request)`, which returns the reply's fields: `{"value": ...}`,
`{"confirmed": True}` or `{"cancelled": True}`. Without one, every dialog is cancelled, so an
extension never waits forever. The example's main() asks on the terminal when it has one.
"""
import itertools
import json
import os
import queue
import shlex
import subprocess
import sys
import threading


DIALOGS = ("select", "confirm", "input", "editor")


class AtomicClient:
    def __init__(self, extra_args=(), cwd=None, env=None, command=None, on_dialog=None):
        base = command or shlex.split(os.environ.get("ATOMIC_CMD", "atomic"))
        self._on_dialog = on_dialog or (lambda request: {"cancelled": True})
        self._write_lock = threading.Lock()
        self._proc = subprocess.Popen(
            base + ["--mode", "rpc", *extra_args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self._ids = itertools.count(1)
        self._pending = {}
        self._lock = threading.Lock()
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        # The "really done" signal: one agent_settled event after each prompt (on by default;
        # asked for anyway, and the answer shows the agent is up).
        self.request({"type": "set_event_options", "agentSettled": True})

    def _read(self):
        for raw in iter(self._proc.stdout.readline, b""):
            record = json.loads(raw.rstrip(b"\r\n").decode("utf-8"))
            if record.get("type") == "response" and record.get("id") in self._pending:
                with self._lock:
                    slot = self._pending.pop(record["id"])
                slot.put(record)
                continue
            if record.get("type") == "extension_ui_request" and record.get("method") in DIALOGS:
                # Answered on a thread of its own: the handler may wait for a person, and this
                # reader must go on (the command that opened the dialog answers only after it).
                threading.Thread(target=self._answer, args=(record,), daemon=True).start()
            self.events.put(record)
        self.events.put(None)  # the agent exited

    def request(self, command, timeout=60):
        """Sends one command and returns its response (a dict with `success`)."""
        request_id = "py-%d" % next(self._ids)
        slot = queue.Queue(maxsize=1)
        with self._lock:
            self._pending[request_id] = slot
        self._send(dict(command, id=request_id))
        return slot.get(timeout=timeout)

    def respond(self, request_id, **fields):
        """Answers an extension dialog: its own id, not a fresh one (a reply gets no response)."""
        self._send(dict(fields, type="extension_ui_response", id=request_id))

    def _answer(self, request):
        try:
            reply = self._on_dialog(request)
        except Exception:  # a failing handler must not leave the extension waiting
            reply = None
        self.respond(request["id"], **(reply or {"cancelled": True}))

    def _send(self, record):
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._write_lock:  # the reader's dialog threads write too
            self._proc.stdin.write(line.encode("utf-8"))
            self._proc.stdin.flush()

    def prompt_and_wait(self, message, on_event=None, timeout=300):
        """Sends a prompt and returns its events once the agent has settled."""
        response = self.request({"type": "prompt", "message": message})
        if not response["success"]:
            raise RuntimeError(response["error"])
        seen = []
        # An extension command handled it: nothing settles unless the command started a run.
        # What it emitted (a notify after its dialog) came before its response, so the reader
        # has queued it already: hand that on rather than leave it for the next prompt.
        if response.get("data", {}).get("disposition") == "handled":
            if not self.request({"type": "get_state"})["data"]["isStreaming"]:
                while True:
                    try:
                        event = self.events.get_nowait()
                    except queue.Empty:
                        return seen
                    if event is None:
                        raise RuntimeError("the agent exited")
                    seen.append(event)
                    if on_event:
                        on_event(event)
        while True:
            event = self.events.get(timeout=timeout)
            if event is None:
                raise RuntimeError("the agent exited")
            if event.get("type") == "agent_settled":
                return seen
            seen.append(event)
            if on_event:
                on_event(event)

    def close(self):
        """Closing stdin ends the agent cleanly (it answers what it read, then exits 0)."""
        self._proc.stdin.close()
        return self._proc.wait(timeout=30)


def ask_on_terminal(request):
    """A dialog on the terminal (stdin): the answer, or cancelled on an empty line or EOF."""
    method, title = request["method"], request.get("title", "")
    try:
        if method == "select":
            options = request.get("options", [])
            for number, option in enumerate(options, 1):
                sys.stderr.write("  %d. %s\n" % (number, option))
            choice = input("%s [1-%d]: " % (title, len(options))).strip()
            return {"value": options[int(choice) - 1]} if choice.isdigit() and 0 < int(choice) <= len(options) else None
        if method == "confirm":
            return {"confirmed": input("%s %s [y/N]: " % (title, request.get("message", ""))).strip().lower() in ("y", "yes")}
        answer = input("%s: " % title)
        return {"value": answer} if answer else None
    except EOFError:
        return None


def main(argv):
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    prompts = argv[: argv.index("--")] if "--" in argv else argv
    client = AtomicClient(extra_args=extra, on_dialog=ask_on_terminal if sys.stdin.isatty() else None)

    streamed = [False]  # text of the current assistant message was written

    def show(event):
        kind = event.get("type")
        update = event.get("assistantMessageEvent") or {}
        if kind == "message_update" and update.get("type") == "text_delta":
            sys.stdout.write(update["delta"])
            sys.stdout.flush()
            streamed[0] = True
        elif kind == "message_end" and streamed[0]:
            # One run may hold several replies (text, a tool call, more text): one line each.
            sys.stdout.write("\n")
            streamed[0] = False
        elif kind == "extension_ui_request" and event.get("method") == "notify":
            sys.stderr.write("[%s] %s\n" % (event.get("notifyType") or "info", event.get("message", "")))

    try:
        for message in prompts or ["Hello!"]:
            client.prompt_and_wait(message, on_event=show)
        answer = client.request({"type": "get_last_assistant_text"})
        print(json.dumps({"text": answer["data"]["text"]}))
    finally:
        client.close()


if __name__ == "__main__":
    main(sys.argv[1:])
