/** Shown when the settings cannot be loaded (same defaults as the server's first settings row). */
export const DEFAULT_EVENT_TITLE = "DREADCAST: The Night It Streams";
export const DEFAULT_THUMBNAIL_URL = "/assets/default-thumbnail.jpg";
export const BRAND = "DREADCAST";
