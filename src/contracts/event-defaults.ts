/**
 * The event's title and thumbnail before an admin sets them: the first settings row the migrations write,
 * and what the web app shows while the settings cannot be loaded.
 */
export const DEFAULT_EVENT_TITLE = "DREADCAST: The Night It Streams";
export const DEFAULT_THUMBNAIL_URL = "/assets/default-thumbnail.jpg";
