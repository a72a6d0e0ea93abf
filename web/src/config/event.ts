/** Shown when the settings cannot be loaded: the defaults the server's first settings row is written with. */
export { BANNER_SIZES, DEFAULT_EVENT_TITLE, DEFAULT_THUMBNAIL_SRCSET, DEFAULT_THUMBNAIL_URL } from "@contracts/event-defaults";
export const BRAND = "DREADCAST";
