/**
 * The chat protocol's limits and close codes, apart from its zod schemas so the stream page can use them
 * without loading the schema library. `chat.ts` re-exports them.
 */
export const CHAT_MESSAGE_MAX_LENGTH = 200;
export const CHAT_HISTORY_LIMIT = 100;
/** Largest frame the server accepts; a bigger one closes the socket (1009). */
export const WS_MAX_FRAME_BYTES = 4 * 1024;

/** Close codes the server uses besides the standard ones (1001 going away on shutdown, 1009 frame too big). */
export const WS_CLOSE_KICKED = 4001;
export const WS_CLOSE_BANNED = 4003;
