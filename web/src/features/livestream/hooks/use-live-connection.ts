import { useEffect, useMemo, useRef } from "react";
import type { ClientFrame } from "@contracts/chat";
import { ChatSocket } from "@/lib/chat-socket";
import type { LiveStore } from "../stores/live-store";
import type { StreamAccess } from "./use-stream-access";

export interface LiveConnection {
  /** Sends a frame; false when the chat is not connected. */
  send: (frame: ClientFrame) => boolean;
  reconnect: () => void;
}

/** Opens the chat connection once access is verified and feeds its events and status into the store. */
export function useLiveConnection(store: LiveStore, access: StreamAccess): LiveConnection {
  const socketRef = useRef<ChatSocket | null>(null);
  const accessCode = access.status === "verified" ? access.accessCode : null;
  const username = access.status === "verified" ? access.username : null;

  useEffect(() => {
    if (accessCode === null || username === null) return;
    const socket = new ChatSocket({
      onEvent: (event) => store.apply(event),
      onStatus: (status) => store.setConnection(status),
      authenticate: () => ({ type: "authenticate", username, accessCode, isTestCode: accessCode.toUpperCase().startsWith("SCP-") }),
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
