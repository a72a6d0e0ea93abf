import { useEffect, useMemo, useRef } from "react";
import type { ClientFrame } from "@contracts/chat";
import { toastError } from "@/hooks/use-toast";
import { appVersion } from "@/lib/app-version";
import { ChatSocket } from "@/lib/chat-socket";
import type { LiveStore } from "../stores/live-store";
import { CONNECTION_ERROR, connectionErrorNotice } from "../utils/connection-error";
import type { StreamAccess } from "./use-stream-access";

export interface LiveConnection {
  /** Sends a frame; false when the chat is not connected. */
  send: (frame: ClientFrame) => boolean;
  reconnect: () => void;
}

/**
 * Opens the chat connection once access is verified and feeds its events and status into the store.
 * A streak of failed attempts is also said in a toast, besides the notice in the chat panel. Connected
 * again after a drop, it asks whether the server now serves a newer build (it was upgraded, say).
 */
export function useLiveConnection(store: LiveStore, access: StreamAccess): LiveConnection {
  const socketRef = useRef<ChatSocket | null>(null);
  const accessCode = access.status === "verified" ? access.accessCode : null;
  const username = access.status === "verified" ? access.username : null;

  useEffect(() => {
    if (username === null) return;
    const noticeFailure = connectionErrorNotice(() => toastError(CONNECTION_ERROR));
    let wasOpen = false;
    const socket = new ChatSocket({
      onEvent: (event) => store.apply(event),
      onStatus: (status) => {
        store.setConnection(status);
        noticeFailure(status);
        if (status.state === "open") {
          if (wasOpen) void appVersion.check(true);
          wasOpen = true;
        }
      },
      // An admin has no code: the server knows the socket by its session either way.
      authenticate: () =>
        accessCode === null ? { type: "authenticate", username } : { type: "authenticate", username, accessCode, isTestCode: accessCode.toUpperCase().startsWith("SCP-") },
    });
    socketRef.current = socket;
    socket.start();
    return () => {
      socket.stop();
      socketRef.current = null;
    };
  }, [store, accessCode, username]);

  return useMemo(
    () => ({
      send: (frame) => socketRef.current?.send(frame) ?? false,
      reconnect: () => socketRef.current?.reconnect(),
    }),
    [],
  );
}
