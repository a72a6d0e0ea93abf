/**
 * What a viewer is told when the event shuts them out: on the chat socket's last frame, and by the stream
 * and the chat's upgrade when they are refused, in the same words.
 */
export const BANNED_MESSAGE = "You have been banned from this event.";
export const KICKED_MESSAGE = "You have been removed from the chat by a moderator.";
export const PASS_ENDED_MESSAGE = "Your access pass has been refunded or disputed and no longer works.";
/** A team member's chat when their rights changed (two factors required, a new role, their sessions ended). */
export const STAFF_RECHECK_MESSAGE = "Your rights in the admin panel changed: the chat reconnects with what they allow now.";
