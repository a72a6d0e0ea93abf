import type { Broker } from "../../cluster/cluster.ts";

/** How often an open stream says it is still there: proxies close a silent connection (nginx after 60 s). */
const HEARTBEAT_MS = 25_000;
const encoder = new TextEncoder();

type Panel = ReadableStreamDefaultController<Uint8Array>;

/**
 * The open admin panels' event streams (Server-Sent Events), by member. When an owner changes a member's
 * role, ends their sessions or removes them (or the member ends their own elsewhere), each of that
 * member's open panels, on every instance, is told at once to read its profile again: the profile then
 * names the new role, or the 401 says why the session ended. The stream carries no data of its own.
 */
export class AdminPanelEvents {
  private readonly panels = new Map<number, Set<Panel>>();

  constructor(private readonly broker: Broker) {
    broker.listen((message) => {
      if (message.k === "admin-changed") this.tell(message.adminId);
    });
  }

  /** The stream an open panel of `adminId` reads: a `profile` event whenever that member changed. */
  stream(adminId: number): ReadableStream<Uint8Array> {
    let panel: Panel | null = null;
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        panel = controller;
        const open = this.panels.get(adminId) ?? new Set();
        open.add(controller);
        this.panels.set(adminId, open);
        // The browser waits 3 s before it opens the stream again after a dropped connection.
        controller.enqueue(encoder.encode("retry: 3000\n: open\n\n"));
        heartbeat = setInterval(() => this.write(controller, ": alive\n\n"), HEARTBEAT_MS);
      },
      cancel: () => {
        if (heartbeat) clearInterval(heartbeat);
        const open = this.panels.get(adminId);
        if (panel) open?.delete(panel);
        if (open?.size === 0) this.panels.delete(adminId);
      },
    });
  }

  /** `adminId`'s role or sessions changed: their panels here and on the other instances are told. */
  changed(adminId: number): void {
    this.tell(adminId);
    this.broker.send({ k: "admin-changed", adminId });
  }

  /** How many panels are open here (for tests and shutdown). */
  openCount(): number {
    let n = 0;
    for (const open of this.panels.values()) n += open.size;
    return n;
  }

  /** Ends every open stream (the server stops). */
  close(): void {
    for (const open of this.panels.values()) for (const panel of open) this.end(panel);
    this.panels.clear();
  }

  private tell(adminId: number): void {
    for (const panel of this.panels.get(adminId) ?? []) this.write(panel, "event: profile\ndata: {}\n\n");
  }

  private write(panel: Panel, text: string): void {
    try {
      panel.enqueue(encoder.encode(text));
    } catch {
      // Closed by the browser: cancel() takes it out.
    }
  }

  private end(panel: Panel): void {
    try {
      panel.close();
    } catch {
      // already closed
    }
  }
}
